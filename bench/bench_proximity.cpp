// SPDX-License-Identifier: MIT
// polydepth-bench proximity: collide, distance and translational CCD of this engine against
// FCL 0.7 (OBBRSS BVHModel) on the same meshes and poses, interleaved in one run.
#include "bench_util.h"

#ifdef POLYDEPTH_HAVE_FCL
#include <fcl/fcl.h>
#endif

#include <memory>

namespace bench
{

namespace
{

struct Case
{
	std::string name;
	std::string poseClass;
	int trisA = 0, trisB = 0;
	double collideUs = 0, fclCollideUs = 0, distanceUs = 0, fclDistanceUs = 0, ccdUs = 0, ccdOverDistance = 0;
	bool agree = true;
	int disagreements = 0;
};

pdTransform makePose( pdQuat q, pdVec3 p )
{
	pdTransform t;
	t.q = q;
	t.p = p;
	return t;
}

#ifdef POLYDEPTH_HAVE_FCL
std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> makeFclModel( const pdMesh* mesh )
{
	auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
	std::vector<fcl::Vector3d> points;
	std::vector<fcl::Triangle> tris;
	pdMeshInfo info = pdMesh_GetInfo( mesh );
	int nv = info.vertexCount, nt = info.triangleCount;
	points.reserve( nv );
	for ( int i = 0; i < nv; ++i )
	{
		pdVec3 v = info.vertices[i];
		points.emplace_back( v.x, v.y, v.z );
	}
	for ( int i = 0; i < nt; ++i )
	{
		tris.emplace_back( info.triangles[i][0], info.triangles[i][1], info.triangles[i][2] );
	}
	model->beginModel( nt, nv );
	model->addSubModel( points, tris );
	model->endModel();
	return model;
}

fcl::Transform3d fclPose( const pdTransform& t )
{
	fcl::Transform3d tf = fcl::Transform3d::Identity();
	tf.linear() = fcl::Quaterniond( t.q.w, t.q.x, t.q.y, t.q.z ).toRotationMatrix();
	tf.translation() = fcl::Vector3d( t.p.x, t.p.y, t.p.z );
	return tf;
}
#endif

bool collides( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb, pdWorkspace* ws )
{
	pdCollideDef def = pdDefaultCollideDef();
	def.checkContainment = false;
	pdCollideResult r;
	pdCollide( a, &pa, b, &pb, &def, ws, &r );
	return r.colliding;
}

/// Largest t along u (from the centre) at which A still collides: the touching distance.
double touchingOffset( const pdMesh* a, pdQuat q, pdVec3 u, const pdMesh* b, double far, pdWorkspace* ws )
{
	pdTransform pb = pdIdentityTransform();
	double lo = 0.0, hi = far;
	// Free at hi by construction (bounding spheres apart); find the outermost colliding offset by
	// marching in from outside, then bisect (the free set along a ray need not be an interval).
	const int steps = 64;
	double lastFree = far;
	for ( int i = steps - 1; i >= 0; --i )
	{
		double t = far * (double)i / steps;
		if ( collides( a, makePose( q, pdVec3{ u.x * t, u.y * t, u.z * t } ), b, pb, ws ) )
		{
			lo = t;
			hi = lastFree;
			break;
		}
		lastFree = t;
	}
	return bisectToFree( lo, hi, 50, [&]( double m ) {
		return collides( a, makePose( q, pdVec3{ u.x * m, u.y * m, u.z * m } ), b, pb, ws );
	} );
}

} // namespace

int runProximity( const Options& o )
{
#ifndef POLYDEPTH_HAVE_FCL
	std::fprintf( stderr, "polydepth-bench proximity: built without FCL (apt-get install libfcl-dev)\n" );
	return 2;
#else
	struct Spec
	{
		const char* name;
		const char* shape; // generator name, or a model file
		int tris;
		bool file;
	};
	std::vector<Spec> specs = { { "torus-1k", "torus", 1000, false },
								{ "knot-3k", "knot", 3000, false },
								{ "bunny-2k", "pqp_spinning_bunny.tris", 0, true },
								{ "torus-20k", "torus", 20000, false },
								{ "knot-40k", "knot", 40000, false },
								{ "bunny-70k", "bunny_noholes.tri", 0, true } };
	if ( o.quick )
	{
		specs = { { "torus-1k", "torus", 1000, false },
				  { "knot-3k", "knot", 3000, false },
				  { "bunny-2k", "pqp_spinning_bunny.tris", 0, true } };
	}
	const int posesPerClass = o.quick ? 4 : 12;
	const int reps = o.repeats > 0 ? o.repeats : ( o.quick ? 5 : 15 );
	const char* classes[] = { "deep", "shallow", "near", "separated" };

	pdWorkspace* ws = pdCreateWorkspace( NULL );
	std::vector<Case> cases;
	for ( const Spec& spec : specs )
	{
		Model model;
		model.name = spec.name;
		if ( spec.file )
		{
			bool standIn = false;
			if ( !loadModelFile( o, spec.shape, "proximity", &model.soup, &standIn ) )
				continue;
			if ( standIn )
				model.name += " (stand-in)";
			centreSoup( &model.soup );
		}
		else if ( !smpMakeShapeByName( spec.shape, spec.tris, 2.0, &model.soup ) )
		{
			std::fprintf( stderr, "proximity: cannot generate %s\n", spec.name );
			continue;
		}
		std::string error;
		if ( !model.finish( &error ) )
		{
			std::fprintf( stderr, "proximity: %s\n", error.c_str() );
			continue;
		}
		const pdMesh* mesh = model.mesh;
		pdVec3 lo = pdMesh_GetInfo( mesh ).boundsMin, hi = pdMesh_GetInfo( mesh ).boundsMax;
		double diag = std::sqrt( ( hi.x - lo.x ) * ( hi.x - lo.x ) + ( hi.y - lo.y ) * ( hi.y - lo.y ) +
								 ( hi.z - lo.z ) * ( hi.z - lo.z ) );
		auto fclModel = makeFclModel( mesh );
		Rng rng( o.seed * 7919u + (unsigned)spec.tris + (unsigned)spec.name[0] );

		for ( const char* cls : classes )
		{
			Case c;
			c.name = model.name;
			c.poseClass = cls;
			c.trisA = c.trisB = model.triangles();
			std::vector<double> ours[3], theirs[2], ccdRatio;
			for ( int k = 0; k < posesPerClass; ++k )
			{
				pdQuat q = rng.rotation();
				pdVec3 u = rng.direction();
				pdVec3 p;
				double touch = touchingOffset( mesh, q, u, mesh, 1.2 * diag, ws );
				double offset;
				std::string c2 = cls;
				if ( c2 == "deep" )
					offset = rng.range( 0.0, 0.5 ) * touch;
				else if ( c2 == "shallow" )
					offset = touch - 0.01 * diag;
				else if ( c2 == "near" )
					offset = touch + 1e-3 * diag;
				else
					offset = touch + 0.2 * diag;
				p = pdVec3{ u.x * offset, u.y * offset, u.z * offset };
				pdTransform pa = makePose( q, p ), pb = pdIdentityTransform();
				fcl::CollisionObjectd oa( fclModel, fclPose( pa ) ), ob( fclModel, fclPose( pb ) );

				pdCollideDef cdef = pdDefaultCollideDef();
				cdef.checkContainment = false; // FCL has no containment test
				pdCollideResult cr{};
				pdDistanceResult dr{};
				fcl::CollisionRequestd creq;
				fcl::DistanceRequestd dreq;
				dreq.enable_nearest_points = true;
				bool fclColliding = false;
				double fclDistance = 0.0;
				// Interleave: ours, FCL, ours, FCL ... so machine noise hits both alike.
				double tOurC = 0, tFclC = 0, tOurD = 0, tFclD = 0;
				for ( int r = 0; r < reps; ++r )
				{
					double t0 = nowUs();
					pdCollide( mesh, &pa, mesh, &pb, &cdef, ws, &cr );
					double t1 = nowUs();
					fcl::CollisionResultd cres;
					fcl::collide( &oa, &ob, creq, cres );
					double t2 = nowUs();
					pdComputeDistance( mesh, &pa, mesh, &pb, nullptr, ws, &dr );
					double t3 = nowUs();
					fcl::DistanceResultd dres;
					fcl::distance( &oa, &ob, dreq, dres );
					double t4 = nowUs();
					fclColliding = cres.isCollision();
					fclDistance = std::max( 0.0, dres.min_distance );
					if ( r > 0 || reps == 1 ) // the first round warms caches and workspaces
					{
						tOurC += t1 - t0;
						tFclC += t2 - t1;
						tOurD += t3 - t2;
						tFclD += t4 - t3;
					}
				}
				int counted = reps > 1 ? reps - 1 : 1;
				ours[0].push_back( tOurC / counted );
				theirs[0].push_back( tFclC / counted );
				ours[1].push_back( tOurD / counted );
				theirs[1].push_back( tFclD / counted );
				bool agreeCollide = cr.colliding == fclColliding;
				double scale = std::max( std::max( dr.distance, fclDistance ), 1e-9 * diag );
				bool agreeDistance = std::fabs( dr.distance - fclDistance ) <= 1e-6 * scale + 1e-12 * diag;
				if ( !agreeCollide || !agreeDistance )
				{
					c.agree = false;
					c.disagreements++;
					std::fprintf( stderr,
								  "proximity: %s %s pose %d disagrees: collide %d/%d distance %.17g/%.17g\n",
								  spec.name, cls, k, (int)cr.colliding, (int)fclColliding, dr.distance, fclDistance );
				}
				// CCD: from this pose straight through B's centre and out the other side.
				if ( c2 == "separated" )
				{
					pdVec3 end = pdVec3{ -p.x, -p.y, -p.z };
					pdCcdResult ccd{};
					std::vector<double> ccdT;
					for ( int r = 0; r < reps; ++r )
					{
						double t0 = nowUs();
						pdComputeTranslationalCcd( mesh, &pa, end, mesh, &pb, nullptr, ws, &ccd );
						ccdT.push_back( nowUs() - t0 );
					}
					double ccdUs = median( ccdT );
					ours[2].push_back( ccdUs );
					ccdRatio.push_back( ccdUs / std::max( 1e-3, tOurD / counted ) );
				}
			}
			c.collideUs = median( ours[0] );
			c.fclCollideUs = median( theirs[0] );
			c.distanceUs = median( ours[1] );
			c.fclDistanceUs = median( theirs[1] );
			c.ccdUs = median( ours[2] );
			c.ccdOverDistance = median( ccdRatio );
			cases.push_back( c );
		}
	}
	pdDestroyWorkspace( ws );

	double minCollide = 1e300, minDistance = 1e300;
	std::vector<double> ccdRatios;
	for ( const Case& c : cases )
	{
		minCollide = std::min( minCollide, c.fclCollideUs / std::max( c.collideUs, 1e-3 ) );
		minDistance = std::min( minDistance, c.fclDistanceUs / std::max( c.distanceUs, 1e-3 ) );
		if ( c.ccdUs > 0 )
			ccdRatios.push_back( c.ccdOverDistance );
	}
	if ( cases.empty() )
	{
		minCollide = minDistance = 0.0;
	}
	double ccdOverDistance = median( ccdRatios );

	if ( !o.csvPath.empty() )
	{
		FILE* f = std::fopen( o.csvPath.c_str(), "w" );
		if ( f != nullptr )
		{
			std::fprintf( f, "name,poses,tris_a,tris_b,collide_us,fcl_collide_us,distance_us,fcl_distance_us,ccd_us,agree\n" );
			for ( const Case& c : cases )
				std::fprintf( f, "%s,%s,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%d\n", c.name.c_str(), c.poseClass.c_str(),
							  c.trisA, c.trisB, c.collideUs, c.fclCollideUs, c.distanceUs, c.fclDistanceUs, c.ccdUs,
							  (int)c.agree );
			std::fclose( f );
		}
	}

	bool allAgree = true;
	for ( const Case& c : cases )
		allAgree = allAgree && c.agree;

	if ( o.json )
	{
		printJsonObject( [&]( Json& j ) {
			j.objects( "cases", cases, [&]( const Case& c ) {
				j.field( "name", c.name + "/" + c.poseClass );
				j.field( "tris_a", c.trisA );
				j.field( "tris_b", c.trisB );
				j.field( "collide_us", c.collideUs );
				j.field( "fcl_collide_us", c.fclCollideUs );
				j.field( "distance_us", c.distanceUs );
				j.field( "fcl_distance_us", c.fclDistanceUs );
				j.field( "ccd_us", c.ccdUs );
				j.flag( "agree", c.agree );
			} );
			j.field( "min_collide_speedup", minCollide );
			j.field( "min_distance_speedup", minDistance );
			j.field( "ccd_over_distance", ccdOverDistance );
		} );
	}
	else
	{
		describeMachine( stdout );
		std::printf( "median microseconds per query over %d poses x %d repeats (interleaved with FCL 0.7 OBBRSS)\n",
					 posesPerClass, reps );
		std::printf( "%-11s %-9s %7s | %9s %9s %6s | %9s %9s %6s | %9s %6s | %s\n", "case", "poses", "tris",
					 "collide", "fcl", "ratio", "distance", "fcl", "ratio", "ccd", "/dist", "agree" );
		for ( const Case& c : cases )
		{
			std::printf( "%-11s %-9s %7d | %9.2f %9.2f %5.2fx | %9.2f %9.2f %5.2fx | %9.2f %6.2f | %s\n", c.name.c_str(),
						 c.poseClass.c_str(), c.trisA, c.collideUs, c.fclCollideUs,
						 c.fclCollideUs / std::max( c.collideUs, 1e-3 ), c.distanceUs, c.fclDistanceUs,
						 c.fclDistanceUs / std::max( c.distanceUs, 1e-3 ), c.ccdUs, c.ccdOverDistance,
						 c.agree ? "yes" : "NO" );
		}
		std::printf( "min speed-up vs FCL: collide %.2fx, distance %.2fx; CCD = %.2f distance queries (median)\n",
					 minCollide, minDistance, ccdOverDistance );
	}
	return allAgree ? 0 : 1;
#endif
}

} // namespace bench
