// SPDX-License-Identifier: MIT
// The assembly scene: close-fitting parts, where contacts on opposite sides of a body hold it
// together and a penetration deeper than the clearance is a failure a person can see.
//   peg      two pegs (radial clearance 1% and 0.25%, 45-degree chamfers on the peg's lower end
//            and the hole's rim) released tilted 2 degrees and 1.5 mm off the hole's axis 5 cm
//            above a static block, then pushed down with 5 N from step 60
//   washers  six washers (annuli, inner radius 1.04 x the shaft's) dropped one by one onto a
//            static shaft with a chamfered top, each released within 1 mm of the shaft's axis
//   plates   six 2 cm plates dropped one by one onto each other on the floor
// The figures come from the transforms, not from Bullet's contacts: how deep a peg's surface is
// inside its block and the shaft's inside a washer (the radial excess over the bore, exact
// against the bore's facets while the part is in the bore, sampled when it is pushed into the
// wall), box-box penetration of the plates by separating axes (exact for boxes), depth below
// the floor, and the library's PD between washers. Dynamic bodies are GImpact meshes; the block,
// the shaft and the floor are static triangle meshes.
#include "scene_world.h"

#include "polydepth/penetration.h"
#include "shapes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace
{

const int kSegments = 48;
const double kBoreRadius = 0.04;
const double kPegLength = 0.25;
const double kPegChamfer = 0.002;
const double kHoleChamfer = 0.003;
const double kBlockWidth = 0.3, kBlockHeight = 0.2; ///< block 0.3 x 0.2 x 0.3 m, the hole along y
const double kShaftRadius = 0.04, kShaftHeight = 0.4, kShaftChamfer = 0.005;
const double kWasherInner = kShaftRadius * 1.04, kWasherOuter = 0.12, kWasherThickness = 0.02;
const double kWasherMass = 0.1;
const double kPlateX = 0.4, kPlateThickness = 0.02, kPlateZ = 0.3;
const double kPlateMargin = 0.003; ///< the convex peer's plate: within 0.4 of its half-thickness
const int kWashers = 6, kPlates = 6;
const int kPushFrom = 60;       ///< the pegs' push starts at this step
const double kPushForce = 5.0;  ///< N, downward
const int kFirstRelease = 20;   ///< washers and plates: the first is released at this step
const int kWasherInterval = 45; ///< steps between releases
const int kPlateInterval = 30;
const double kDeepFraction = 0.01; ///< a pair is "deep" beyond this fraction of its thickness

const std::array<float, 3> kStaticColor = { { 0.82f, 0.82f, 0.85f } };

btTransform smpPose( const btQuaternion& q, const btVector3& p )
{
	return btTransform( q, p );
}

/// A soup made about z, turned so that its axis is y: (x, y, z) -> (x, z, -y).
bool smpTakeSoupYUp( smpSoup* soup, std::vector<double>* v, std::vector<uint32_t>* t )
{
	const double zToY[9] = { 1, 0, 0, 0, 0, 1, 0, -1, 0 };
	smpTransformSoup( soup, zToY, pdVec3{ 0.0, 0.0, 0.0 } );
	v->assign( soup->vertices, soup->vertices + 3 * soup->vertexCount );
	t->assign( soup->indices, soup->indices + 3 * soup->triangleCount );
	smpFreeSoup( soup );
	return !v->empty();
}

/// Every undirected edge of a mesh once, as vertex index pairs.
std::vector<std::pair<uint32_t, uint32_t>> smpMeshEdges( const std::vector<uint32_t>& t )
{
	std::vector<std::pair<uint32_t, uint32_t>> edges;
	for ( size_t i = 0; i + 2 < t.size(); i += 3 )
		for ( int k = 0; k < 3; ++k )
		{
			uint32_t a = t[i + k], b = t[i + ( k + 1 ) % 3];
			edges.push_back( { std::min( a, b ), std::max( a, b ) } );
		}
	std::sort( edges.begin(), edges.end() );
	edges.erase( std::unique( edges.begin(), edges.end() ), edges.end() );
	return edges;
}

/// A bored solid about the y axis of its own frame: the bore a regular polygon of `segments`
/// sides with vertices on `radius` from y = bottom to y = top, widening at 45 degrees by
/// `chamfer` above top; outside, either a box of half widths outerX, outerZ (the block) or a
/// cylinder of outerRadius (the washer).
struct smpBore
{
	double radius = 0.0;
	int segments = kSegments;
	double bottom = 0.0, top = 0.0, chamfer = 0.0;
	double outerX = 0.0, outerZ = 0.0, outerRadius = 0.0;
};

/// How far (m) a point reaches radially beyond the bore's facets of the given radius (negative:
/// inside). The facets' normals are at the angles (2k + 1) pi / segments, their distance from the
/// axis radius cos(pi / segments).
double smpBoreExcessAt( const smpBore& bore, const btVector3& p, double boreRadius )
{
	const double w = 2.0 * M_PI / bore.segments;
	double rho = std::hypot( (double)p.x(), (double)p.z() );
	double u = std::atan2( (double)p.z(), (double)p.x() ) - 0.5 * w;
	double r = u - w * std::floor( u / w );
	double delta = std::min( r, w - r );
	return rho * std::cos( delta ) - boreRadius * std::cos( 0.5 * w );
}

/// Depth (m) of a point inside the bored solid (<= 0 outside it): the least of its radial excess
/// over the bore and its distances to the solid's outer sides, top and bottom.
double smpBoreDepthAt( const smpBore& bore, const btVector3& p, double boreRadius )
{
	double depth = smpBoreExcessAt( bore, p, boreRadius );
	depth = std::min( { depth, (double)p.y() - bore.bottom, bore.top + bore.chamfer - (double)p.y() } );
	if ( bore.outerX > 0.0 )
		depth =
			std::min( { depth, bore.outerX - std::fabs( (double)p.x() ), bore.outerZ - std::fabs( (double)p.z() ) } );
	if ( bore.outerRadius > 0.0 )
		depth = std::min( depth, bore.outerRadius - std::hypot( (double)p.x(), (double)p.z() ) );
	return depth;
}

/// The deepest point (m, 0 when none) of a body's surface inside the bored solid, given the body's
/// edges in the solid's frame. Each edge is clipped to the bore's band and to the chamfer's and
/// evaluated at its clipped ends and 15 points between. While the body stays in the bore the
/// depth is its radial excess, convex along an edge on a band where the bore's radius is linear
/// in y, so the largest excess over a face clipped to a band is at a clipped edge end: exact. A
/// body pushed into the wall beyond the bore is sampled.
double smpBoreExcess( const smpBore& bore, const std::vector<btVector3>& points,
					  const std::vector<std::pair<uint32_t, uint32_t>>& edges )
{
	const int kSamples = 16;
	double worst = 0.0;
	struct Band
	{
		double lo, hi, radiusLo, slope;
	};
	const Band bands[2] = { { bore.bottom, bore.top, bore.radius, 0.0 },
							{ bore.top, bore.top + bore.chamfer, bore.radius, 1.0 } };
	for ( const auto& e : edges )
	{
		const btVector3& a = points[e.first];
		const btVector3& b = points[e.second];
		for ( const Band& band : bands )
		{
			if ( band.hi <= band.lo )
				continue;
			double ya = (double)a.y(), yb = (double)b.y();
			double t0 = 0.0, t1 = 1.0;
			if ( std::fabs( yb - ya ) < 1e-15 )
			{
				if ( ya < band.lo || ya > band.hi )
					continue;
			}
			else
			{
				double s0 = ( band.lo - ya ) / ( yb - ya ), s1 = ( band.hi - ya ) / ( yb - ya );
				t0 = std::max( 0.0, std::min( s0, s1 ) );
				t1 = std::min( 1.0, std::max( s0, s1 ) );
				if ( t0 > t1 )
					continue;
			}
			for ( int k = 0; k <= kSamples; ++k )
			{
				double t = t0 + ( t1 - t0 ) * k / kSamples;
				btVector3 p = a + ( b - a ) * btScalar( t );
				double radius = band.radiusLo + band.slope * ( (double)p.y() - band.lo );
				worst = std::max( worst, smpBoreDepthAt( bore, p, radius ) );
			}
		}
	}
	return worst;
}

/// Penetration depth (m, 0 when apart) of two boxes given by half extents and poses: the least
/// overlap over the separating axes (faces of each, cross products of edges), exact for boxes.
double smpBoxPenetration( const btVector3& halfA, const btTransform& a, const btVector3& halfB, const btTransform& b )
{
	btVector3 axesA[3], axesB[3];
	for ( int k = 0; k < 3; ++k )
	{
		axesA[k] = a.getBasis().getColumn( k );
		axesB[k] = b.getBasis().getColumn( k );
	}
	btVector3 d = b.getOrigin() - a.getOrigin();
	double least = 1e300;
	auto test = [&]( btVector3 axis )
	{
		double len = (double)axis.length();
		if ( len < 1e-6 )
			return;
		axis /= btScalar( len );
		double ra = 0.0, rb = 0.0;
		for ( int k = 0; k < 3; ++k )
		{
			ra += (double)halfA[k] * std::fabs( (double)axesA[k].dot( axis ) );
			rb += (double)halfB[k] * std::fabs( (double)axesB[k].dot( axis ) );
		}
		least = std::min( least, ra + rb - std::fabs( (double)d.dot( axis ) ) );
	};
	for ( int i = 0; i < 3; ++i )
	{
		test( axesA[i] );
		test( axesB[i] );
		for ( int j = 0; j < 3; ++j )
			test( axesA[i].cross( axesB[j] ) );
	}
	return std::max( 0.0, least );
}

/// The lowest world y of a body's vertices.
double smpLowestY( const std::vector<double>& v, const btTransform& t )
{
	double lowest = 1e300;
	for ( size_t i = 0; i + 2 < v.size(); i += 3 )
		lowest = std::min(
			lowest, (double)( t * btVector3( btScalar( v[i] ), btScalar( v[i + 1] ), btScalar( v[i + 2] ) ) ).y() );
	return lowest;
}

/// The angle (degrees) between a body's y axis and the world's.
double smpTiltDeg( const btTransform& t )
{
	double c = std::fabs( (double)t.getBasis().getColumn( 1 ).y() );
	return std::acos( std::min( 1.0, c ) ) * 180.0 / M_PI;
}

struct smpPeg
{
	int body = -1, block = -1;
	double clearance = 0.0;       ///< radial, as a fraction of the bore's radius
	std::vector<double> vertices; ///< the peg's mesh in its own frame
	double radius = 0.0;
	btVector3 axis; ///< the bore's axis: (x, 0, z)
	smpBore bore;
	double insertion = 0.0, maxInsertion = 0.0;
	double maxWall = 0.0, maxTilt = 0.0, finalTilt = 0.0;
	bool inHole = false;
};

struct smpHeld
{
	int body = -1;
	int releaseStep = 0;
};

/// What the assembly scene measures, shared by its hooks.
struct smpAssemblyState
{
	std::vector<double> washerVertices, shaftVertices, plateVertices;
	std::vector<std::pair<uint32_t, uint32_t>> pegEdges, shaftEdges;
	std::vector<smpPeg> pegs;
	std::vector<smpHeld> held; ///< washers and plates, weightless and still until released
	std::vector<int> washers, plates;
	int shaftBody = -1;
	btVector3 shaftAxis;
	int settleFrom = 0;
	double thickness = 0.0; ///< the thinnest body's thinnest dimension (m)
	pdMesh* washerMesh = nullptr;
	pdWorkspace* workspace = nullptr;
	// Over the run.
	double maxWasherWall = 0.0, maxWasherTilt = 0.0;
	double maxPair = 0.0, settledPair = 0.0;
	int deepSteps = 0, longestDeep = 0;
	int pdQueries = 0, pdFailures = 0;
	std::map<std::pair<int, int>, int> streak; ///< consecutive deep steps per pair (-1: the floor)
	int threaded = 0;

	~smpAssemblyState()
	{
		pdDestroyMesh( washerMesh );
		if ( workspace != nullptr )
			pdDestroyWorkspace( workspace );
	}
};

/// A body that left the scene (fell through the floor or off the 3 m square): its pairs are not
/// counted (smpSceneMetrics::lost counts it).
bool smpGone( smpSceneWorld& world, int body )
{
	const btVector3& p = world.rigidBody( body )->getWorldTransform().getOrigin();
	return !( p.y() > -0.05 && std::fabs( p.x() ) < 3.0 && std::fabs( p.z() ) < 3.0 );
}

/// Turns a pair's depth this step into the run's figures; returns whether it is deep.
bool smpRecordPair( smpAssemblyState& s, int a, int b, double depth, double thickness, int step,
					std::map<std::pair<int, int>, int>* streaks )
{
	if ( !std::isfinite( depth ) )
		return false;
	s.maxPair = std::max( s.maxPair, depth );
	if ( step >= s.settleFrom )
		s.settledPair = std::max( s.settledPair, depth );
	bool deep = depth > kDeepFraction * thickness;
	if ( deep )
	{
		int n = ( s.streak.count( { a, b } ) != 0 ? s.streak[{ a, b }] : 0 ) + 1;
		( *streaks )[{ a, b }] = n;
		s.longestDeep = std::max( s.longestDeep, n );
	}
	return deep;
}

void smpMeasurePegs( smpAssemblyState& s, smpSceneWorld& world, int step, bool* deep,
					 std::map<std::pair<int, int>, int>* streaks )
{
	for ( smpPeg& peg : s.pegs )
	{
		if ( smpGone( world, peg.body ) )
		{
			peg.inHole = false;
			continue;
		}
		const btTransform& t = world.rigidBody( peg.body )->getWorldTransform();
		std::vector<btVector3> points( peg.vertices.size() / 3 );
		for ( size_t i = 0; i < points.size(); ++i )
			points[i] = t * btVector3( btScalar( peg.vertices[3 * i] ), btScalar( peg.vertices[3 * i + 1] ),
									   btScalar( peg.vertices[3 * i + 2] ) ) -
						peg.axis;
		btVector3 bottom = t * btVector3( 0, btScalar( -0.5 * kPegLength ), 0 ) - peg.axis;
		double offAxis = std::hypot( (double)bottom.x(), (double)bottom.z() );
		peg.insertion = peg.bore.top + peg.bore.chamfer - (double)bottom.y();
		peg.inHole = peg.insertion > 0.0 && offAxis < peg.bore.radius + peg.bore.chamfer;
		peg.maxInsertion = std::max( peg.maxInsertion, peg.inHole ? peg.insertion : 0.0 );
		double tilt = smpTiltDeg( t );
		peg.finalTilt = tilt;
		if ( peg.inHole )
			peg.maxTilt = std::max( peg.maxTilt, tilt );
		double wall = smpBoreExcess( peg.bore, points, s.pegEdges );
		peg.maxWall = std::max( peg.maxWall, wall );
		double pegThickness = 2.0 * peg.radius;
		*deep = smpRecordPair( s, peg.body, peg.block, wall, pegThickness, step, streaks ) || *deep;
		double floor = std::max( 0.0, -smpLowestY( peg.vertices, t ) );
		*deep = smpRecordPair( s, peg.body, -1, floor, pegThickness, step, streaks ) || *deep;
	}
}

void smpMeasureWashers( smpAssemblyState& s, smpSceneWorld& world, int step, bool* deep,
						std::map<std::pair<int, int>, int>* streaks )
{
	if ( s.washers.empty() )
		return;
	if ( s.workspace == nullptr )
		s.workspace = pdCreateWorkspace( nullptr );
	std::vector<btVector3> shaft( s.shaftVertices.size() / 3 );
	smpBore hole;
	hole.radius = kWasherInner;
	hole.bottom = -0.5 * kWasherThickness;
	hole.top = 0.5 * kWasherThickness;
	hole.outerRadius = kWasherOuter;
	s.threaded = 0;
	for ( int w : s.washers )
	{
		if ( smpGone( world, w ) )
			continue;
		const btTransform& t = world.rigidBody( w )->getWorldTransform();
		btVector3 c = t.getOrigin() - s.shaftAxis;
		bool threaded = std::hypot( (double)c.x(), (double)c.z() ) < kWasherInner && c.y() < kShaftHeight;
		s.threaded += threaded ? 1 : 0;
		btTransform inverse = t.inverse();
		for ( size_t i = 0; i < shaft.size(); ++i )
			shaft[i] = inverse * btVector3( btScalar( s.shaftVertices[3 * i] ), btScalar( s.shaftVertices[3 * i + 1] ),
											btScalar( s.shaftVertices[3 * i + 2] ) );
		double wall = smpBoreExcess( hole, shaft, s.shaftEdges );
		if ( threaded )
			s.maxWasherTilt = std::max( s.maxWasherTilt, smpTiltDeg( t ) );
		s.maxWasherWall = std::max( s.maxWasherWall, wall );
		*deep = smpRecordPair( s, w, s.shaftBody, wall, kWasherThickness, step, streaks ) || *deep;
		double floor = std::max( 0.0, -smpLowestY( s.washerVertices, t ) );
		*deep = smpRecordPair( s, w, -1, floor, kWasherThickness, step, streaks ) || *deep;
	}
	pdPenetrationDef def = pdDefaultPenetrationDef();
	for ( size_t i = 0; i < s.washers.size(); ++i )
		for ( size_t j = i + 1; j < s.washers.size(); ++j )
		{
			if ( smpGone( world, s.washers[i] ) || smpGone( world, s.washers[j] ) )
				continue;
			btVector3 loA, hiA, loB, hiB;
			world.rigidBody( s.washers[i] )->getAabb( loA, hiA );
			world.rigidBody( s.washers[j] )->getAabb( loB, hiB );
			if ( loA.x() > hiB.x() || loB.x() > hiA.x() || loA.y() > hiB.y() || loB.y() > hiA.y() ||
				 loA.z() > hiB.z() || loB.z() > hiA.z() )
				continue;
			pdTransform pa = world.bodyPose( s.washers[i] ), pb = world.bodyPose( s.washers[j] );
			pdPenetrationResult result;
			++s.pdQueries;
			if ( pdComputePenetration( s.washerMesh, &pa, s.washerMesh, &pb, &def, nullptr, s.workspace, &result ) < 0 )
			{
				++s.pdFailures;
				continue;
			}
			double depth = result.state == PD_STATE_PENETRATING && std::isfinite( result.depth ) ? result.depth : 0.0;
			*deep = smpRecordPair( s, s.washers[i], s.washers[j], depth, kWasherThickness, step, streaks ) || *deep;
		}
}

void smpMeasurePlates( smpAssemblyState& s, smpSceneWorld& world, int step, bool* deep,
					   std::map<std::pair<int, int>, int>* streaks )
{
	const btVector3 half( btScalar( 0.5 * kPlateX ), btScalar( 0.5 * kPlateThickness ), btScalar( 0.5 * kPlateZ ) );
	for ( size_t i = 0; i < s.plates.size(); ++i )
	{
		if ( smpGone( world, s.plates[i] ) )
			continue;
		const btTransform& a = world.rigidBody( s.plates[i] )->getWorldTransform();
		double floor = std::max( 0.0, -smpLowestY( s.plateVertices, a ) );
		*deep = smpRecordPair( s, s.plates[i], -1, floor, kPlateThickness, step, streaks ) || *deep;
		for ( size_t j = i + 1; j < s.plates.size(); ++j )
		{
			if ( smpGone( world, s.plates[j] ) )
				continue;
			const btTransform& b = world.rigidBody( s.plates[j] )->getWorldTransform();
			double depth = smpBoxPenetration( half, a, half, b );
			*deep = smpRecordPair( s, s.plates[i], s.plates[j], depth, kPlateThickness, step, streaks ) || *deep;
		}
	}
}

/// One static mesh body (closed: the library's penetration measurement pairs it with the bodies).
int smpAddStaticSolid( smpSceneWorld* scene, std::vector<double> v, std::vector<uint32_t> t, const btVector3& at )
{
	int shape = scene->addShape( std::move( v ), std::move( t ), true, kStaticColor );
	scene->setShapeClosed( shape );
	return scene->addBody( shape, smpPose( btQuaternion( 0, 0, 0, 1 ), at ), 0.0 );
}

bool smpBuildPegs( smpSceneWorld* scene, smpAssemblyState* s, double x0, std::string* error )
{
	smpSceneRandom random( scene->config().seed );
	const double clearances[2] = { 0.01, 0.0025 };
	for ( int k = 0; k < 2; ++k )
	{
		smpSoup soup = {};
		std::vector<double> v;
		std::vector<uint32_t> t;
		if ( !smpMakeHoleBlock( kBlockWidth, kBlockWidth, kBlockHeight, kBoreRadius, kHoleChamfer, kSegments, &soup ) ||
			 !smpTakeSoupYUp( &soup, &v, &t ) )
		{
			*error = "cannot generate the block with a hole";
			return false;
		}
		btVector3 axis( btScalar( x0 + 0.4 * k ), 0, 0 );
		int block = smpAddStaticSolid( scene, std::move( v ), std::move( t ),
									   axis + btVector3( 0, btScalar( 0.5 * kBlockHeight ), 0 ) );
		double radius = kBoreRadius / ( 1.0 + clearances[k] );
		if ( !smpMakeChamferedCylinder( radius, kPegLength, kPegChamfer, 0.0, kSegments, &soup ) ||
			 !smpTakeSoupYUp( &soup, &v, &t ) )
		{
			*error = "cannot generate the peg";
			return false;
		}
		if ( s->pegEdges.empty() )
			s->pegEdges = smpMeshEdges( t ); // both pegs have the same topology
		std::vector<uint32_t> all( v.size() / 3 );
		for ( size_t i = 0; i < all.size(); ++i )
			all[i] = (uint32_t)i;
		std::vector<double> pegVertices = v;
		int shape = scene->addShape( std::move( v ), std::move( t ), false, { { 0.75f, 0.55f, 0.25f } } );
		if ( scene->config().algo == SMP_SCENE_ALGO_CONVEX && !scene->setConvexPieces( shape, { all }, error ) )
			return false;
		// The lower end's centre 1.5 mm off the axis and the axis leaning 2 degrees the same way,
		// in a direction drawn from the seed; the lower end 5 cm above the block.
		double theta = random.range( 0.0, 2.0 * M_PI );
		btVector3 towards( btScalar( std::cos( theta ) ), 0, btScalar( std::sin( theta ) ) );
		btQuaternion tilt( btVector3( 0, 1, 0 ).cross( towards ), btScalar( 2.0 * M_PI / 180.0 ) );
		btVector3 lowerEnd = axis + towards * btScalar( 0.0015 ) + btVector3( 0, btScalar( kBlockHeight + 0.05 ), 0 );
		btVector3 centre = lowerEnd + quatRotate( tilt, btVector3( 0, btScalar( 0.5 * kPegLength ), 0 ) );
		smpPeg peg;
		peg.body = scene->addBody( shape, smpPose( tilt, centre ), 1.0 );
		peg.block = block;
		peg.vertices = std::move( pegVertices );
		peg.clearance = clearances[k];
		peg.radius = radius;
		peg.axis = axis;
		peg.bore.radius = kBoreRadius;
		peg.bore.bottom = 0.0;
		peg.bore.top = kBlockHeight - kHoleChamfer;
		peg.bore.chamfer = kHoleChamfer;
		peg.bore.outerX = 0.5 * kBlockWidth;
		peg.bore.outerZ = 0.5 * kBlockWidth;
		s->pegs.push_back( peg );
	}
	s->settleFrom = std::max( s->settleFrom, kPushFrom + 120 );
	return true;
}

/// A body held weightless and still (a hand holding it) until its release step.
void smpHold( smpSceneWorld* scene, smpAssemblyState* s, int body, int releaseStep )
{
	scene->rigidBody( body )->setGravity( btVector3( 0, 0, 0 ) );
	s->held.push_back( { body, releaseStep } );
}

bool smpBuildWashers( smpSceneWorld* scene, smpAssemblyState* s, double x0, std::string* error )
{
	smpSoup soup = {};
	std::vector<double> v;
	std::vector<uint32_t> t;
	if ( !smpMakeChamferedCylinder( kShaftRadius, kShaftHeight, 0.0, kShaftChamfer, kSegments, &soup ) ||
		 !smpTakeSoupYUp( &soup, &v, &t ) )
	{
		*error = "cannot generate the shaft";
		return false;
	}
	s->shaftAxis = btVector3( btScalar( x0 ), 0, 0 );
	s->shaftEdges = smpMeshEdges( t );
	s->shaftVertices = v;
	for ( size_t i = 0; i + 2 < s->shaftVertices.size(); i += 3 )
	{
		s->shaftVertices[i] += x0; // world coordinates: the shaft is static
		s->shaftVertices[i + 1] += 0.5 * kShaftHeight;
	}
	s->shaftBody = smpAddStaticSolid( scene, std::move( v ), std::move( t ),
									  btVector3( btScalar( x0 ), btScalar( 0.5 * kShaftHeight ), 0 ) );
	if ( !smpMakeWasher( kWasherInner, kWasherOuter, kWasherThickness, kSegments, &soup ) ||
		 !smpTakeSoupYUp( &soup, &v, &t ) )
	{
		*error = "cannot generate the washer";
		return false;
	}
	if ( scene->config().algo == SMP_SCENE_ALGO_CONVEX )
	{
		*error = "the convex algorithm has no pieces for the washers (an annulus's segments are thinner than "
				 "Bullet's collision margin)";
		return false;
	}
	s->washerVertices = v;
	pdMeshDef md = pdDefaultMeshDef();
	md.vertices = s->washerVertices.data();
	md.vertexCount = (int)( s->washerVertices.size() / 3 );
	md.vertexType = PD_SCALAR_FLOAT64;
	md.indices = t.data();
	md.triangleCount = (int)( t.size() / 3 );
	md.indexType = PD_INDEX_UINT32;
	s->washerMesh = pdCreateMesh( &md, nullptr );
	if ( s->washerMesh == nullptr )
	{
		*error = "cannot make the washer's mesh for the penetration measurement";
		return false;
	}
	int shape = scene->addShape( std::move( v ), std::move( t ), false, { { 0.55f, 0.65f, 0.85f } } );
	smpSceneRandom random( scene->config().seed + 1000u );
	for ( int k = 0; k < kWashers; ++k )
	{
		// Held 5 cm above the shaft's top and 4 cm apart, each within 1 mm of the axis.
		double r = 0.001 * std::sqrt( random.uniform() ), a = random.range( 0.0, 2.0 * M_PI );
		btVector3 at =
			s->shaftAxis + btVector3( btScalar( r * std::cos( a ) ), btScalar( kShaftHeight + 0.05 + 0.04 * k ),
									  btScalar( r * std::sin( a ) ) );
		int body = scene->addBody( shape, smpPose( btQuaternion( 0, 0, 0, 1 ), at ), kWasherMass );
		smpHold( scene, s, body, kFirstRelease + kWasherInterval * k );
		s->washers.push_back( body );
	}
	s->settleFrom = std::max( s->settleFrom, kFirstRelease + kWasherInterval * kWashers + 60 );
	return true;
}

bool smpBuildPlates( smpSceneWorld* scene, smpAssemblyState* s, double x0, std::string* error )
{
	smpSoup soup = {};
	if ( !smpMakeBox( pdVec3{ 0.5 * kPlateX, 0.5 * kPlateThickness, 0.5 * kPlateZ }, 2, &soup ) )
	{
		*error = "cannot generate a plate";
		return false;
	}
	std::vector<double> v( soup.vertices, soup.vertices + 3 * soup.vertexCount );
	std::vector<uint32_t> t( soup.indices, soup.indices + 3 * soup.triangleCount );
	smpFreeSoup( &soup );
	s->plateVertices = v;
	std::vector<uint32_t> all( v.size() / 3 );
	for ( size_t i = 0; i < all.size(); ++i )
		all[i] = (uint32_t)i;
	int shape = scene->addShape( std::move( v ), std::move( t ), false, { { 0.55f, 0.75f, 0.35f } } );
	// The convex peer: a plate is its own hull, its margin kept inside it as btBoxShape keeps
	// its own; the scene's 1 cm margin is half the plate's thickness.
	if ( scene->config().algo == SMP_SCENE_ALGO_CONVEX &&
		 !scene->setConvexPieces( shape, { all }, error, kPlateMargin ) )
		return false;
	smpSceneRandom random( scene->config().seed + 2000u );
	for ( int k = 0; k < kPlates; ++k )
	{
		// Held in a column 5 cm above where the one below will lie, up to 1 cm off and turned up to
		// 5 degrees about y.
		btQuaternion yaw( btVector3( 0, 1, 0 ), btScalar( random.range( -5.0, 5.0 ) * M_PI / 180.0 ) );
		btVector3 at( btScalar( x0 + random.range( -0.01, 0.01 ) ),
					  btScalar( 0.5 * kPlateThickness + 0.05 + ( kPlateThickness + 0.05 ) * k ),
					  btScalar( random.range( -0.01, 0.01 ) ) );
		int body = scene->addBody( shape, smpPose( yaw, at ), 1.0 );
		smpHold( scene, s, body, kFirstRelease + kPlateInterval * k );
		s->plates.push_back( body );
	}
	s->settleFrom = std::max( s->settleFrom, kFirstRelease + kPlateInterval * kPlates + 60 );
	return true;
}

/// The figures of the run so far.
std::vector<smpSceneFigure> smpAssemblyFigures( const smpAssemblyState& s, double timeStep )
{
	std::vector<smpSceneFigure> f;
	f.push_back( { "thickness", s.thickness, "thinnest body's thinnest dimension (m)" } );
	if ( !s.pegs.empty() )
	{
		int inserted = 0;
		double depth = 1e300, wall = 0.0, tilt = 0.0;
		for ( const smpPeg& p : s.pegs )
		{
			inserted += p.inHole && p.insertion >= 0.9 * kBlockHeight ? 1 : 0;
			depth = std::min( depth, p.inHole ? p.insertion : 0.0 );
			wall = std::max( wall, p.maxWall );
			tilt = std::max( tilt, p.maxTilt );
		}
		f.push_back( { "pegs", (double)s.pegs.size(), "pegs" } );
		f.push_back( { "inserted", (double)inserted, "pegs inserted (>= 90% of the hole's depth at the end)" } );
		f.push_back( { "insertion_depth", depth, "least insertion depth over the pegs at the end (m)" } );
		for ( const smpPeg& p : s.pegs )
		{
			std::string key = p.clearance > 0.005 ? "peg_1pct_" : "peg_025pct_";
			std::string name = p.clearance > 0.005 ? "peg, 1% clearance: " : "peg, 0.25% clearance: ";
			f.push_back(
				{ key + "insertion_depth", p.inHole ? p.insertion : 0.0, name + "insertion depth at the end (m)" } );
			f.push_back( { key + "max_insertion_depth", p.maxInsertion, name + "deepest insertion (m)" } );
			f.push_back(
				{ key + "max_wall_penetration", p.maxWall,
				  name + "deepest point in the block: radial excess over the bore, or deeper into the wall (m)" } );
			f.push_back( { key + "max_tilt_deg", p.maxTilt, name + "largest tilt inside the hole (degrees)" } );
			f.push_back( { key + "final_tilt_deg", p.finalTilt, name + "tilt at the end (degrees)" } );
		}
		f.push_back( { "max_wall_penetration", wall, "deepest point of a peg in its block (m)" } );
		f.push_back( { "max_tilt_deg", tilt, "largest tilt of a peg inside its hole (degrees)" } );
	}
	if ( !s.washers.empty() )
	{
		f.push_back( { "washers", (double)s.washers.size(), "washers" } );
		f.push_back( { "threaded", (double)s.threaded, "washers on the shaft at the end" } );
		f.push_back( { "washer_max_wall_penetration", s.maxWasherWall,
					   "deepest point of the shaft in a washer: radial excess over the hole, or deeper (m)" } );
		f.push_back( { "washer_max_tilt_deg", s.maxWasherTilt, "largest tilt of a washer on the shaft (degrees)" } );
		if ( s.pegs.empty() )
		{
			f.push_back( { "max_wall_penetration", s.maxWasherWall, "deepest point of the shaft in a washer (m)" } );
			f.push_back( { "max_tilt_deg", s.maxWasherTilt, "largest tilt of a washer on the shaft (degrees)" } );
		}
		f.push_back( { "washer_pd_queries", (double)s.pdQueries, "washer-washer PD queries" } );
		f.push_back( { "washer_pd_failures", (double)s.pdFailures, "of them failed" } );
	}
	if ( !s.plates.empty() )
		f.push_back( { "plates", (double)s.plates.size(), "plates" } );
	f.push_back( { "max_pair_penetration", s.maxPair, "deepest pair, every step (m)" } );
	f.push_back( { "settled_pair_penetration", s.settledPair, "deepest pair once settled (m)" } );
	f.push_back( { "settled_over_thickness", s.settledPair / std::max( s.thickness, 1e-12 ),
				   "settled pair penetration / thickness" } );
	f.push_back( { "deep_pair_steps", (double)s.deepSteps, "steps with a pair deeper than 1% of its thickness" } );
	f.push_back( { "deep_pair_seconds", s.deepSteps * timeStep, "the same in seconds" } );
	f.push_back( { "deep_pair_longest_steps", (double)s.longestDeep,
				   "longest run of steps one pair stayed deeper than 1% of its thickness" } );
	return f;
}

} // namespace

std::unique_ptr<smpScene> smpCreateAssemblyScene( const smpSceneConfig& inConfig, std::string* error )
{
	smpSceneConfig config = inConfig;
	config.kind = SMP_SCENE_ASSEMBLY;
	config.sleeping = false; // held parts are released by turning their gravity on
	const std::string& part = config.variant;
	if ( !part.empty() && part != "peg" && part != "washers" && part != "plates" )
	{
		*error = "unknown assembly part '" + part + "' (peg, washers or plates)";
		return nullptr;
	}
	if ( config.steps <= 0 )
		config.steps = 600;
	config.substeps = std::max( 1, config.substeps );
	if ( config.solverIterations <= 0 )
		config.solverIterations = 10;
	const char* name = part == "peg"       ? "assembly-peg"
					   : part == "washers" ? "assembly-washers"
					   : part == "plates"  ? "assembly-plates"
										   : "assembly";
	std::unique_ptr<smpSceneWorld> scene( new smpSceneWorld( config, name ) );
	if ( !scene->initWorld( error ) )
		return nullptr;
	scene->setStepCount( config.steps );
	// The floor, 3 m square (zero thickness, facing up).
	std::vector<double> fv;
	std::vector<uint32_t> ft;
	smpSceneAppendQuad( btVector3( -3, 0, -3 ), btVector3( 0, 0, 6 ), btVector3( 6, 0, 0 ), 12, &fv, &ft );
	scene->addBody( scene->addShape( std::move( fv ), std::move( ft ), true, kStaticColor ),
					smpPose( btQuaternion( 0, 0, 0, 1 ), btVector3( 0, 0, 0 ) ), 0.0 );

	std::shared_ptr<smpAssemblyState> s = std::make_shared<smpAssemblyState>();
	const bool all = part.empty();
	bool ok = true;
	if ( all || part == "peg" )
		ok = smpBuildPegs( scene.get(), s.get(), all ? -1.4 : -0.2, error );
	if ( ok && ( all || part == "washers" ) )
		ok = smpBuildWashers( scene.get(), s.get(), all ? 0.0 : 0.0, error );
	if ( ok && ( all || part == "plates" ) )
		ok = smpBuildPlates( scene.get(), s.get(), all ? 1.4 : 0.0, error );
	if ( !ok )
		return nullptr;
	s->thickness = !s->washers.empty() || !s->plates.empty() ? kWasherThickness : 1e300;
	for ( const smpPeg& peg : s->pegs )
		s->thickness = std::min( s->thickness, 2.0 * peg.radius );
	double size = 0.0; // the largest body's diagonal
	if ( !s->pegs.empty() )
		size = std::max( size, std::sqrt( kPegLength * kPegLength + 8.0 * kBoreRadius * kBoreRadius ) );
	if ( !s->washers.empty() )
		size = std::max( size, std::sqrt( 8.0 * kWasherOuter * kWasherOuter + kWasherThickness * kWasherThickness ) );
	if ( !s->plates.empty() )
		size = std::max( size, std::sqrt( kPlateX * kPlateX + kPlateZ * kPlateZ + kPlateThickness * kPlateThickness ) );
	scene->setBodySize( size );

	const btVector3 gravity = scene->world()->getGravity();
	scene->setBeforeStep(
		[s, gravity]( smpSceneWorld& world, int step )
		{
			for ( const smpHeld& h : s->held )
			{
				btRigidBody* body = world.rigidBody( h.body );
				if ( step == h.releaseStep )
					body->setGravity( gravity );
				else if ( step < h.releaseStep )
				{
					body->setLinearVelocity( btVector3( 0, 0, 0 ) );
					body->setAngularVelocity( btVector3( 0, 0, 0 ) );
				}
			}
			if ( step >= kPushFrom )
				for ( const smpPeg& peg : s->pegs )
					world.rigidBody( peg.body )->applyCentralForce( btVector3( 0, btScalar( -kPushForce ), 0 ) );
		} );
	scene->setAfterStep(
		[s]( smpSceneWorld& world, int step )
		{
			bool deep = false;
			std::map<std::pair<int, int>, int> streaks;
			smpMeasurePegs( *s, world, step, &deep, &streaks );
			smpMeasureWashers( *s, world, step, &deep, &streaks );
			smpMeasurePlates( *s, world, step, &deep, &streaks );
			s->streak = std::move( streaks ); // pairs not deep this step end their run
			s->deepSteps += deep ? 1 : 0;
		} );
	const double dt = config.timeStep;
	scene->setFigures( [s, dt]() { return smpAssemblyFigures( *s, dt ); } );
	if ( part == "peg" )
		scene->setCamera( btVector3( 0.3f, 0.6f, 0.9f ), btVector3( 0, 0.2f, 0 ) );
	else if ( part == "washers" )
		scene->setCamera( btVector3( 0.6f, 0.7f, 1.0f ), btVector3( 0, 0.25f, 0 ) );
	else if ( part == "plates" )
		scene->setCamera( btVector3( 0.6f, 0.6f, 1.0f ), btVector3( 0, 0.15f, 0 ) );
	else
		scene->setCamera( btVector3( 0, 1.6f, 3.2f ), btVector3( 0, 0.2f, 0 ) );
	return scene;
}
