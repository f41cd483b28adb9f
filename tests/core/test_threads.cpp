// SPDX-License-Identifier: MIT
// Meshes are immutable and shareable, workspaces are per thread: several std::threads run
// collide, distance, CCD and PD on the same meshes at once and must get bit-identical results
// to the single-threaded run. scripts/tsan runs this suite under ThreadSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

extern "C"
{
#include "polydepth/polydepth.h"
#include "shapes.h"
}

#include "random_pose.h"

namespace
{

struct Query
{
	int a, b;
	pdTransform poseA, poseB;
	pdVec3 end;
};

// Everything a query returns that is a value (not a pointer), as raw bytes for exact comparison.
struct Answer
{
	std::vector<unsigned char> bytes;

	template <typename T> void Add( const T& v )
	{
		const unsigned char* p = reinterpret_cast<const unsigned char*>( &v );
		bytes.insert( bytes.end(), p, p + sizeof( T ) );
	}
};

void AddVec( Answer* out, pdVec3 v )
{
	out->Add( v.x );
	out->Add( v.y );
	out->Add( v.z );
}

Answer RunQuery( const std::vector<pdMesh*>& meshes, const Query& q, pdWorkspace* ws )
{
	Answer out;
	const pdMesh* a = meshes[q.a];
	const pdMesh* b = meshes[q.b];

	pdCollideDef cdef = pdDefaultCollideDef();
	cdef.reportAllPairs = true;
	pdCollideResult c;
	out.Add( (int)pdCollide( a, &q.poseA, b, &q.poseB, &cdef, ws, &c ) );
	out.Add( c.colliding );
	out.Add( c.containment );
	out.Add( c.pairCount );
	out.Add( c.nodeVisits );
	for ( int i = 0; i < c.pairCount; ++i )
	{
		out.Add( c.pairs[i].triangleA );
		out.Add( c.pairs[i].triangleB );
	}

	pdDistanceResult d;
	out.Add( (int)pdComputeDistance( a, &q.poseA, b, &q.poseB, nullptr, ws, &d ) );
	out.Add( d.distance );
	AddVec( &out, d.pointA );
	AddVec( &out, d.pointB );
	out.Add( d.nodeVisits );

	pdCcdResult ccd;
	out.Add( (int)pdComputeTranslationalCcd( a, &q.poseA, q.end, b, &q.poseB, nullptr, ws, &ccd ) );
	out.Add( ccd.hit );
	out.Add( ccd.toc );
	AddVec( &out, ccd.contactPosition );
	out.Add( ccd.featureCount );
	for ( int i = 0; i < ccd.featureCount; ++i )
	{
		AddVec( &out, ccd.features[i].pointA );
		AddVec( &out, ccd.features[i].normal );
		out.Add( ccd.features[i].distance );
	}

	pdPenetrationResult p;
	out.Add( (int)pdComputePenetration( a, &q.poseA, b, &q.poseB, nullptr, nullptr, ws, &p ) );
	out.Add( (int)p.state );
	out.Add( p.depth );
	AddVec( &out, p.translation );
	out.Add( p.iterations );
	out.Add( p.starts );
	out.Add( p.contactPlaneCount );
	out.Add( p.nodeVisits );
	out.Add( p.localCount );
	for ( int i = 0; i < p.localCount; ++i )
	{
		AddVec( &out, p.local[i].translation );
		out.Add( p.local[i].pointCount );
	}
	return out;
}

pdTransform RandomPose( std::mt19937& rng, double spread )
{
	return polydepth::test::RandomAxisAnglePose( rng, spread, 3.14159, 1e-9 );
}

class PdThreadsFixture
{
public:
	PdThreadsFixture()
	{
		const char* names[] = { "torus", "knot", "cup", "spoon", "box" };
		for ( const char* name : names )
		{
			smpSoup s = {};
			EXPECT_TRUE( smpMakeShapeByName( name, 400, 2.0, &s ) ) << name;
			meshes.push_back( smpSoupCreateMesh( &s, nullptr ) );
			EXPECT_NE( meshes.back(), nullptr ) << name;
			smpFreeSoup( &s );
		}
		std::mt19937 rng( 2024 );
		for ( int i = 0; i < 12; ++i )
		{
			Query q;
			q.a = (int)( rng() % meshes.size() );
			q.b = (int)( rng() % meshes.size() );
			q.poseA = RandomPose( rng, 0.8 );
			q.poseB = RandomPose( rng, 0.3 );
			q.end = { q.poseB.p.x, q.poseB.p.y, q.poseB.p.z };
			queries.push_back( q );
		}
	}
	~PdThreadsFixture()
	{
		for ( pdMesh* m : meshes )
		{
			pdDestroyMesh( m );
		}
	}

	std::vector<Answer> SingleThreaded() const
	{
		std::vector<Answer> answers;
		pdWorkspace* ws = pdCreateWorkspace( NULL );
		for ( const Query& q : queries )
		{
			answers.push_back( RunQuery( meshes, q, ws ) );
		}
		pdDestroyWorkspace( ws );
		return answers;
	}

	std::vector<pdMesh*> meshes;
	std::vector<Query> queries;
};

TEST( PdThreads, SharedMeshesGiveSingleThreadedResults )
{
	PdThreadsFixture f;
	const std::vector<Answer> expected = f.SingleThreaded();
	const int threadCount = 4;
	const int rounds = 1;
	std::vector<int> mismatches( threadCount, 0 );
	std::vector<std::thread> threads;
	std::atomic<int> ready( 0 );
	for ( int t = 0; t < threadCount; ++t )
	{
		threads.emplace_back( [&, t]() {
			pdWorkspace* ws = pdCreateWorkspace( NULL );
			ready.fetch_add( 1 );
			while ( ready.load() < threadCount )
			{
				std::this_thread::yield();
			}
			// Each thread walks the queries from a different offset, so different queries overlap.
			size_t n = f.queries.size();
			for ( int r = 0; r < rounds; ++r )
			{
				for ( size_t k = 0; k < n; ++k )
				{
					size_t i = ( k + (size_t)t * 7 ) % n;
					Answer got = RunQuery( f.meshes, f.queries[i], ws );
					if ( got.bytes != expected[i].bytes )
					{
						mismatches[t] += 1;
					}
				}
			}
			pdDestroyWorkspace( ws );
		} );
	}
	for ( std::thread& th : threads )
	{
		th.join();
	}
	for ( int t = 0; t < threadCount; ++t )
	{
		EXPECT_EQ( mismatches[t], 0 ) << "thread " << t << " got results that differ from the single-threaded run";
	}
}

TEST( PdThreads, ConcurrentMeshCreationAndQueries )
{
	// Threads create and destroy their own meshes while others query shared ones: the
	// allocator hooks and byte counter are the only shared mutable state.
	PdThreadsFixture f;
	const std::vector<Answer> expected = f.SingleThreaded();
	std::vector<int> failures( 4, 0 );
	std::vector<std::thread> threads;
	for ( int t = 0; t < 4; ++t )
	{
		threads.emplace_back( [&, t]() {
			pdWorkspace* ws = pdCreateWorkspace( NULL );
			for ( int k = 0; k < 6; ++k )
			{
				if ( t % 2 == 0 )
				{
					smpSoup s = {};
					if ( !smpMakeShapeByName( k % 2 ? "torus" : "knot", 400 + 50 * t, 1.5, &s ) )
					{
						failures[t] += 1;
						continue;
					}
					pdMesh* m = smpSoupCreateMesh( &s, nullptr );
					smpFreeSoup( &s );
					failures[t] += m == nullptr;
					pdDestroyMesh( m );
				}
				else
				{
					size_t i = (size_t)( k * 5 + t ) % f.queries.size();
					failures[t] += RunQuery( f.meshes, f.queries[i], ws ).bytes != expected[i].bytes;
				}
			}
			pdDestroyWorkspace( ws );
		} );
	}
	for ( std::thread& th : threads )
	{
		th.join();
	}
	for ( int t = 0; t < 4; ++t )
	{
		EXPECT_EQ( failures[t], 0 ) << "thread " << t;
	}
}

} // namespace
