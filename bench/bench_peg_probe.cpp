// SPDX-License-Identifier: MIT
// polydepth-bench peg-probe: the contacts of one peg wedged in its bore, as Bullet receives them.
// A peg (closed cylinder, radius 0.04 / 1.01 m, 48 segments, 0.25 m) stands 3 cm deep in the
// 4 cm hole of a block (0.3 x 0.2 x 0.3 m, static triangle mesh), tilted by a about z about its
// lower end and shifted by 0.015 tan(a) in x, so that its lower end presses the bore on one side
// and its side presses the rim on the other. For each angle one
// btCollisionWorld::performDiscreteCollisionDetection with the PolyDepth algorithm registered
// (and, for reference, with Bullet's GImpact alone) and every manifold it leaves: normal, points,
// depths. Beside them the interference the geometry implies (ideal circles, analytic), the
// facets' sagitta (how far a tessellated wall lies inside its circle) and the library's global
// PD of the pair. A wall contact's normal is horizontal, or tilted by at most a where the peg's
// side meets the rim's edge: radial; a normal along the bore's axis is not.
#include "bench_util.h"

#ifdef POLYDEPTH_HAVE_BULLET
#include "polydepth/bullet.h"

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletCollisionCommon.h>

#include <memory>
#endif

namespace bench
{

#ifdef POLYDEPTH_HAVE_BULLET
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

struct ProbeManifold
{
	btVector3 normal;              ///< on the block toward the peg (the push on the peg), unit
	std::vector<double> depths;    ///< Bullet's distances (< 0: penetration), m
	std::vector<btVector3> points; ///< on the block, world
};

struct ProbeContacts
{
	std::vector<ProbeManifold> manifolds;
	bool radialPlus = false, radialMinus = false; ///< a radial normal pushing the peg toward -x / +x
	bool axial = false;                           ///< a normal within 45 degrees of the bore's axis
	double deepest = 0.0;                         ///< the deepest point, m (>= 0)
};

struct ProbeAngle
{
	double degrees = 0.0, shift = 0.0;
	double rimInterference = 0.0, lowerInterference = 0.0; ///< ideal circles, m (> 0: overlap)
	double pd = 0.0;
	pdVec3 pdDirection{ 0.0, 0.0, 0.0 };
	ProbeContacts polydepth, gimpact;
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
ProbeContacts collide( btCollisionShape* block, btCollisionShape* peg, const btTransform& pose, bool withPolyDepth,
					   double tilt )
{
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher( &config );
	btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
	ProbeContacts out;
	if ( withPolyDepth && polydepth::bullet::registerAlgorithm( &dispatcher, nullptr ) != PD_STATUS_OK )
		return out;
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
			ProbeManifold pm;
			pm.normal = sign * m->getContactPoint( 0 ).m_normalWorldOnB;
			for ( int k = 0; k < m->getNumContacts(); ++k )
			{
				const btManifoldPoint& p = m->getContactPoint( k );
				pm.depths.push_back( (double)p.getDistance() );
				pm.points.push_back( m->getBody0() == &pegObject ? p.getPositionWorldOnB() : p.getPositionWorldOnA() );
				out.deepest = std::max( out.deepest, -(double)p.getDistance() );
				btVector3 n = sign * p.m_normalWorldOnB;
				bool radial = std::fabs( (double)n.y() ) <= std::sin( tilt ) + 0.05;
				if ( radial && n.x() < -0.5 )
					out.radialPlus = true;
				if ( radial && n.x() > 0.5 )
					out.radialMinus = true;
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

void printContacts( const char* name, const ProbeContacts& c )
{
	std::printf( "  %s: %zu manifolds, deepest %.3f mm; radial normals on both sides: %s; axial normal: %s\n", name,
				 c.manifolds.size(), 1e3 * c.deepest, c.radialPlus && c.radialMinus ? "yes" : "NO",
				 c.axial ? "YES" : "no" );
	for ( const ProbeManifold& m : c.manifolds )
	{
		std::printf( "    normal (%+.3f %+.3f %+.3f), %zu points, depths mm:", (double)m.normal.x(),
					 (double)m.normal.y(), (double)m.normal.z(), m.depths.size() );
		for ( double d : m.depths )
			std::printf( " %.3f", 1e3 * d );
		std::printf( "; at y mm:" );
		for ( const btVector3& p : m.points )
			std::printf( " %.1f", 1e3 * (double)p.y() );
		std::printf( "\n" );
	}
}

void writeContacts( Json& j, const char* key, const ProbeContacts& c )
{
	j.beginObject( key );
	j.field( "deepest", c.deepest );
	j.flag( "radial_both_sides", c.radialPlus && c.radialMinus );
	j.flag( "axial", c.axial );
	j.objects( "manifolds", c.manifolds,
			   [&]( const ProbeManifold& m )
			   {
				   j.beginArray( "normal" );
				   for ( int k = 0; k < 3; ++k )
					   j.num( (double)m.normal[k] );
				   j.endArray();
				   j.field( "points", (double)m.depths.size() );
				   j.beginArray( "depths" );
				   for ( double d : m.depths )
					   j.num( d );
				   j.endArray();
				   j.beginArray( "positions" );
				   for ( const btVector3& p : m.points )
				   {
					   j.beginArray();
					   for ( int k = 0; k < 3; ++k )
						   j.num( (double)p[k] );
					   j.endArray();
				   }
				   j.endArray();
			   } );
	j.endObject();
}

} // namespace
#endif

int runPegProbe( const Options& o )
{
#ifndef POLYDEPTH_HAVE_BULLET
	std::fprintf( stderr, "polydepth-bench peg-probe: built without Bullet (apt-get install libbullet-dev)\n" );
	return 2;
#else
	ProbeMesh blockMesh, pegMesh;
	smpSoup soup = {};
	smpMakeHoleBlock( 0.3, 0.3, kBlockHeight, kBore, 0.0, kSegments, &soup );
	bool ok = blockMesh.take( &soup );
	smpMakeChamferedCylinder( kPeg, kLength, 0.0, 0.0, kSegments, &soup );
	ok = pegMesh.take( &soup ) && ok;
	if ( !ok )
	{
		std::fprintf( stderr, "polydepth-bench peg-probe: cannot build the block or the peg\n" );
		return 1;
	}
	btBvhTriangleMeshShape block( blockMesh.array.get(), true );
	btGImpactMeshShape peg( pegMesh.array.get() );
	peg.updateBound();
	const double boreSagitta = kBore * ( 1.0 - std::cos( M_PI / kSegments ) );
	const double pegSagitta = kPeg * ( 1.0 - std::cos( M_PI / kSegments ) );
	pdWorkspace* workspace = pdCreateWorkspace( nullptr );
	std::vector<ProbeAngle> angles;
	for ( double degrees : { 3.0, 6.0, 10.0, 20.0 } )
	{
		ProbeAngle p;
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
		p.polydepth = collide( &block, &peg, pose, true, a );
		p.gimpact = collide( &block, &peg, pose, false, a );
		angles.push_back( p );
	}
	pdDestroyWorkspace( workspace );
	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.field( "bore_radius", kBore );
				j.field( "peg_radius", kPeg );
				j.field( "bore_sagitta", boreSagitta );
				j.field( "peg_sagitta", pegSagitta );
				j.objects( "angles", angles,
						   [&]( const ProbeAngle& p )
						   {
							   j.field( "angle_deg", p.degrees );
							   j.field( "shift", p.shift );
							   j.field( "rim_interference", p.rimInterference );
							   j.field( "lower_interference", p.lowerInterference );
							   j.field( "pd", p.pd );
							   j.beginArray( "pd_direction" );
							   j.num( p.pdDirection.x );
							   j.num( p.pdDirection.y );
							   j.num( p.pdDirection.z );
							   j.endArray();
							   writeContacts( j, "polydepth", p.polydepth );
							   writeContacts( j, "gimpact", p.gimpact );
						   } );
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "peg-probe: peg r %.3f mm (1%% clearance), 48 segments, 3 cm into a bore of r 40 mm (static triangle\n"
				 "mesh), tilted by a about z about its lower end, shifted by 0.015 tan(a); one\n"
				 "performDiscreteCollisionDetection. Normals: the push on the peg. Facet sagitta: bore %.3f mm, peg\n"
				 "%.3f mm (a tessellated wall lies inside its circle by up to that much)\n",
				 1e3 * kPeg, 1e3 * boreSagitta, 1e3 * pegSagitta );
	for ( const ProbeAngle& p : angles )
	{
		std::printf(
			"\na = %g deg, shift %.3f mm: expected interference at the rim %.3f mm (-x side), at the lower end "
			"%.3f mm (+x side); library PD %.3f mm along (%+.3f %+.3f %+.3f)\n",
			p.degrees, 1e3 * p.shift, 1e3 * p.rimInterference, 1e3 * p.lowerInterference, 1e3 * p.pd, p.pdDirection.x,
			p.pdDirection.y, p.pdDirection.z );
		printContacts( "polydepth", p.polydepth );
		printContacts( "gimpact", p.gimpact );
	}
	return 0;
#endif
}

} // namespace bench
