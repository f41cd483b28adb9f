// SPDX-License-Identifier: MIT
// The peg probe (peg_probe.h): one peg wedged in its bore at a few tilts, through Bullet's
// collision world with and without the PolyDepth algorithm.
#include "peg_probe.h"

#include "polydepth/bullet.h"
#include "shapes.h"

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace
{

const double kBore = 0.04, kPeg = 0.04 / 1.01, kLength = 0.25, kBlockHeight = 0.2, kInside = 0.03;
const int kSegments = 48;

/// Triangles in Bullet's precision, kept alive for the shapes made on them.
struct ProbeMesh
{
	std::vector<btScalar> vertices;
	std::vector<int> indices;
	std::unique_ptr<btTriangleIndexVertexArray> array;
	std::vector<double> exact; ///< the same vertices in double, for the library's PD
	std::vector<uint32_t> triangles;
	pdMesh* mesh = nullptr;
	ProbeMesh() = default;
	ProbeMesh( const ProbeMesh& ) = delete;
	ProbeMesh& operator=( const ProbeMesh& ) = delete;
	~ProbeMesh() { pdDestroyMesh( mesh ); }

	/// Takes a soup made about z, turned so that its axis is y. False when soup is empty.
	bool take( smpSoup* soup )
	{
		if ( soup->vertexCount == 0 )
			return false;
		const double zToY[9] = { 1, 0, 0, 0, 0, 1, 0, -1, 0 };
		smpTransformSoup( soup, zToY, pdVec3{ 0.0, 0.0, 0.0 } );
		exact.assign( soup->vertices, soup->vertices + 3 * soup->vertexCount );
		triangles.assign( soup->indices, soup->indices + 3 * soup->triangleCount );
		vertices.assign( exact.begin(), exact.end() );
		indices.assign( triangles.begin(), triangles.end() );
		smpFreeSoup( soup );
		array = std::make_unique<btTriangleIndexVertexArray>( (int)( indices.size() / 3 ), indices.data(),
															  3 * (int)sizeof( int ), (int)( vertices.size() / 3 ),
															  vertices.data(), 3 * (int)sizeof( btScalar ) );
		pdMeshDef def = pdDefaultMeshDef();
		def.vertices = exact.data();
		def.vertexCount = (int)( exact.size() / 3 );
		def.vertexType = PD_SCALAR_FLOAT64;
		def.indices = triangles.data();
		def.triangleCount = (int)( triangles.size() / 3 );
		def.indexType = PD_INDEX_UINT32;
		mesh = pdCreateMesh( &def, nullptr );
		return mesh != nullptr;
	}
};

/// The peg's pose at tilt a (radians): lower end 3 cm below the block's top, shifted by
/// 0.015 tan(a) in +x, the axis turned by a about z.
btTransform pegPose( double a, double shift )
{
	btQuaternion q( btVector3( 0, 0, 1 ), btScalar( a ) );
	btVector3 lower( btScalar( shift ), btScalar( kBlockHeight - kInside ), 0 );
	return btTransform( q, lower + quatRotate( q, btVector3( 0, btScalar( 0.5 * kLength ), 0 ) ) );
}

/// One collision detection pass on the pair; the manifolds it leaves.
smpPegProbeContacts collide( btCollisionShape* block, btCollisionShape* peg, const btTransform& pose,
							 bool withPolyDepth, double tilt, bool* outRegistered = nullptr )
{
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher( &config );
	btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
	smpPegProbeContacts out;
	if ( withPolyDepth && polydepth::bullet::registerAlgorithm( &dispatcher, nullptr ) != PD_STATUS_OK )
	{
		if ( outRegistered != nullptr )
			*outRegistered = false;
		return out;
	}
	btDbvtBroadphase broadphase;
	{
		btCollisionWorld world( &dispatcher, &broadphase, &config );
		btCollisionObject blockObject, pegObject;
		blockObject.setCollisionShape( block );
		blockObject.setWorldTransform( btTransform::getIdentity() );
		blockObject.getWorldTransform().setOrigin( btVector3( 0, btScalar( 0.5 * kBlockHeight ), 0 ) );
		pegObject.setCollisionShape( peg );
		pegObject.setWorldTransform( pose );
		world.addCollisionObject( &blockObject );
		world.addCollisionObject( &pegObject );
		world.performDiscreteCollisionDetection();
		for ( int i = 0; i < dispatcher.getNumManifolds(); ++i )
		{
			btPersistentManifold* m = dispatcher.getManifoldByIndexInternal( i );
			if ( m->getNumContacts() == 0 )
				continue;
			// The manifold's normal is on body1 toward body0: toward the peg when the peg is body0.
			btScalar sign = m->getBody0() == &pegObject ? btScalar( 1 ) : btScalar( -1 );
			smpPegProbeManifold pm;
			pm.normal = sign * m->getContactPoint( 0 ).m_normalWorldOnB;
			for ( int k = 0; k < m->getNumContacts(); ++k )
			{
				const btManifoldPoint& p = m->getContactPoint( k );
				pm.depths.push_back( (double)p.getDistance() );
				pm.points.push_back( m->getBody0() == &pegObject ? p.getPositionWorldOnB() : p.getPositionWorldOnA() );
				out.deepest = std::max( out.deepest, -(double)p.getDistance() );
				btVector3 n = sign * p.m_normalWorldOnB;
				bool radial = std::fabs( (double)n.y() ) <= std::sin( tilt ) + 0.05;
				double depth = -(double)p.getDistance();
				if ( radial && n.x() < -0.5 )
				{
					out.radialPlus = true;
					out.deepestPlusSide = std::max( out.deepestPlusSide, depth );
				}
				if ( radial && n.x() > 0.5 )
				{
					out.radialMinus = true;
					out.deepestMinusSide = std::max( out.deepestMinusSide, depth );
				}
				if ( std::fabs( (double)n.y() ) > std::sqrt( 0.5 ) )
					out.axial = true;
			}
			out.manifolds.push_back( pm );
		}
		world.removeCollisionObject( &pegObject );
		world.removeCollisionObject( &blockObject );
	}
	if ( withPolyDepth )
		polydepth::bullet::unregisterAlgorithm( &dispatcher );
	return out;
}

} // namespace

bool smpRunPegProbe( const std::vector<double>& degreeList, smpPegProbe* out )
{
	*out = smpPegProbe();
	ProbeMesh blockMesh, pegMesh;
	smpSoup soup = {};
	smpMakeHoleBlock( 0.3, 0.3, kBlockHeight, kBore, 0.0, kSegments, &soup );
	bool ok = blockMesh.take( &soup );
	smpMakeChamferedCylinder( kPeg, kLength, 0.0, 0.0, kSegments, &soup );
	ok = pegMesh.take( &soup ) && ok;
	if ( !ok )
	{
		return false;
	}
	btBvhTriangleMeshShape block( blockMesh.array.get(), true );
	btGImpactMeshShape peg( pegMesh.array.get() );
	peg.updateBound();
	out->boreRadius = kBore;
	out->pegRadius = kPeg;
	out->boreSagitta = kBore * ( 1.0 - std::cos( M_PI / kSegments ) );
	out->pegSagitta = kPeg * ( 1.0 - std::cos( M_PI / kSegments ) );
	pdWorkspace* workspace = pdCreateWorkspace( nullptr );
	for ( double degrees : degreeList )
	{
		smpPegProbeAngle p;
		double a = degrees * M_PI / 180.0;
		p.degrees = degrees;
		p.shift = 0.5 * kInside * std::tan( a );
		// The axis crosses the rim's height at x = -shift, where the peg's horizontal section is an
		// ellipse of half width r / cos(a); the lower end's rim reaches x = shift + r cos(a).
		p.rimInterference = p.shift + kPeg / std::cos( a ) - kBore;
		p.lowerInterference = p.shift + kPeg * std::cos( a ) - kBore;
		btTransform pose = pegPose( a, p.shift );
		btQuaternion q = pose.getRotation();
		pdTransform pa, pb;
		pa.q = { (double)q.w(), (double)q.x(), (double)q.y(), (double)q.z() };
		pa.p = { (double)pose.getOrigin().x(), (double)pose.getOrigin().y(), (double)pose.getOrigin().z() };
		pb.q = { 1.0, 0.0, 0.0, 0.0 };
		pb.p = { 0.0, 0.5 * kBlockHeight, 0.0 };
		pdPenetrationDef def = pdDefaultPenetrationDef();
		pdPenetrationResult result;
		if ( pdComputePenetration( pegMesh.mesh, &pa, blockMesh.mesh, &pb, &def, nullptr, workspace, &result ) >= 0 &&
			 result.state == PD_STATE_PENETRATING )
		{
			p.pd = result.depth;
			double d = std::max( result.depth, 1e-300 );
			p.pdDirection = pdVec3{ result.translation.x / d, result.translation.y / d, result.translation.z / d };
		}
		bool registered = true;
		p.polydepth = collide( &block, &peg, pose, true, a, &registered );
		ok = ok && registered;
		p.gimpact = collide( &block, &peg, pose, false, a );
		out->angles.push_back( p );
	}
	pdDestroyWorkspace( workspace );
	return ok;
}
