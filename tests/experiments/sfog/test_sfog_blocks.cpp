// SPDX-License-Identifier: MIT
// The red-blue blocks sweep (bench/experiments/sfog/sfog_blocks.c) against the naive all-pairs
// overlay (the oracle) and the plain and banded sweeps, on random rotations of the generated
// non-convex shapes, an open generated mesh (undecidable graph), the bunny of the paper's models
// when POLYDEPTH_MODELS points at them, and degenerate inputs: coplanar faces (point arcs), arcs
// on great circles through the sweep's pole, face nodes on the pole, identical orientations
// (nodes of A on reflected nodes of B).
#include <gtest/gtest.h>

#include "sfog_test_util.h"

extern "C"
{
#include "model_io.h"
#include "sfog_experiments.h"
}

#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace PdSfogTest;

namespace
{

MeshPtr MakeShape( const char* name, int triangles )
{
	Soup s;
	if ( !smpMakeShapeByName( name, triangles, 2.0, &s.soup ) )
	{
		ADD_FAILURE() << "shape " << name;
		return nullptr;
	}
	return MakeMesh( s.soup );
}

// The rotation taking unit u onto unit v (Rodrigues; u != -v).
pdiMat33 RotationOnto( pdVec3 u, pdVec3 v )
{
	pdVec3 k = pdiCross( u, v );
	double c = pdiDot( u, v );
	double f = 1.0 / ( 1.0 + c );
	auto col = [&]( pdVec3 e ) {
		// R e = e c + (k x e) + k (k . e) f
		return pdiAdd( pdiAdd( pdiScale( e, c ), pdiCross( k, e ) ), pdiScale( k, pdiDot( k, e ) * f ) );
	};
	pdiMat33 m;
	m.cx = col( pdiV3( 1, 0, 0 ) );
	m.cy = col( pdiV3( 0, 1, 0 ) );
	m.cz = col( pdiV3( 0, 0, 1 ) );
	return m;
}

pdiMat33 Mul( const pdiMat33& a, const pdiMat33& b )
{
	pdiMat33 m;
	m.cx = pdiMulMV( &a, b.cx );
	m.cy = pdiMulMV( &a, b.cy );
	m.cz = pdiMulMV( &a, b.cz );
	return m;
}

pdVec3 SweepPole()
{
	pdiSfogSweepFrame f;
	pdiSfog_SweepFrame( &f );
	return f.e3;
}

struct Outcome
{
	int pairs = 0;
	int kinetic = 0;
	int purple = 0;
};

// Blocks (called directly, so a fallback would fail the test) against naive, plain and banded.
Outcome CheckBlocks( const pdMesh* a, const pdiMat33& ra, const pdMesh* b, const pdiMat33& rb, pdWorkspace* ws,
					 const std::string& what )
{
	SCOPED_TRACE( what );
	Outcome out;
	int count = 0;
	const pdiSfogPair* pairs = nullptr;
	pdiSfogOverlayStats naiveStats, stats;
	EXPECT_EQ( pdiSfog_OverlayNaive( a, &ra, b, &rb, ws, &count, &pairs, &naiveStats ), PD_STATUS_OK );
	std::vector<pdiSfogPair> naive( pairs, pairs + count );
	EXPECT_EQ( pdiSfog_OverlayBlocks( a, &ra, b, &rb, ws, &count, &pairs, &stats ), PD_STATUS_OK );
	std::vector<pdiSfogPair> blocks( pairs, pairs + count );
	out.pairs = count;
	out.kinetic = stats.kineticEvents;
	out.purple = stats.purpleEvents;
	EXPECT_EQ( stats.pairsBefore, naiveStats.pairsBefore );
	EXPECT_EQ( stats.pairsAfter, (int)blocks.size() );
	auto same = [&]( const std::vector<pdiSfogPair>& x, const char* name ) {
		EXPECT_EQ( x.size(), naive.size() ) << name;
		size_t i = 0, j = 0;
		int shown = 0;
		while ( ( i < x.size() || j < naive.size() ) && shown < 6 )
		{
			auto key = []( const pdiSfogPair& p ) { return std::make_tuple( (int)p.kind, p.a, p.b ); };
			if ( j == naive.size() || ( i < x.size() && key( x[i] ) < key( naive[j] ) ) )
			{
				ADD_FAILURE() << name << " extra (" << x[i].kind << "," << x[i].a << "," << x[i].b << ")";
				++i, ++shown;
			}
			else if ( i == x.size() || key( naive[j] ) < key( x[i] ) )
			{
				ADD_FAILURE() << name << " missing (" << naive[j].kind << "," << naive[j].a << "," << naive[j].b << ")";
				++j, ++shown;
			}
			else
			{
				++i, ++j;
			}
		}
	};
	same( blocks, "blocks" );
	for ( int variant : { (int)PDI_SFOG_SWEEP_PLAIN, (int)PDI_SFOG_SWEEP_BANDED, (int)PDI_SFOG_SWEEP_BLOCKS } )
	{
		EXPECT_EQ( pdiSfog_OverlaySweep( a, &ra, b, &rb, variant, ws, &count, &pairs, nullptr ), PD_STATUS_OK );
		std::vector<pdiSfogPair> v( pairs, pairs + count );
		same( v, variant == PDI_SFOG_SWEEP_PLAIN ? "plain" : ( variant == PDI_SFOG_SWEEP_BANDED ? "banded" : "dispatch" ) );
	}
	return out;
}

// A file of the paper's models: POLYDEPTH_MODELS names their directory. Empty when the variable
// is unset or the file is absent.
std::string ModelPath( const char* name )
{
	const char* dir = std::getenv( "POLYDEPTH_MODELS" );
	if ( dir == nullptr || dir[0] == '\0' )
	{
		return std::string();
	}
	std::string path = std::string( dir ) + "/" + name;
	struct stat st;
	return stat( path.c_str(), &st ) == 0 ? path : std::string();
}

} // namespace

TEST( PdSfogBlocks, EqualsNaiveOnNonConvexShapes )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	const char* names[] = { "torus", "knot", "grate", "cup", "spoon", "distorted-torus" };
	std::vector<MeshPtr> meshes;
	for ( const char* n : names )
	{
		meshes.push_back( MakeShape( n, 300 ) );
		ASSERT_NE( meshes.back(), nullptr ) << n;
		ASSERT_NE( meshes.back()->sfog, nullptr ) << n;
	}
	int64_t kinetic = 0, purple = 0;
	int seed = 0;
	for ( size_t i = 0; i < meshes.size(); ++i )
	{
		for ( size_t j = i; j < meshes.size(); j += 2 )
		{
			for ( int rep = 0; rep < 2; ++rep, ++seed )
			{
				Rng rng( 4100 + seed );
				pdiMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
				Outcome o = CheckBlocks( meshes[i].get(), ra, meshes[j].get(), rb, ws.get(),
										 std::string( names[i] ) + " vs " + names[j] + " seed " +
											 std::to_string( 4100 + seed ) );
				kinetic += o.kinetic;
				purple += o.purple;
			}
		}
	}
	// The kinetic structure did the work (not only the brute-force and near-miss paths).
	EXPECT_GT( kinetic, 0 );
	EXPECT_GT( purple, 0 );
}

TEST( PdSfogBlocks, EqualsNaiveOnConvexAndMixedPairs )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	Soup ico, hull, torus;
	ASSERT_TRUE( smpMakeIcosphere( 1.0, 2, &ico.soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 60, 9, &hull.soup ) );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.35, 16, 8, &torus.soup ) );
	MeshPtr a = MakeMesh( ico.soup ), b = MakeMesh( hull.soup ), c = MakeMesh( torus.soup );
	ASSERT_TRUE( a && b && c );
	for ( int seed = 0; seed < 8; ++seed )
	{
		Rng rng( 5200 + seed );
		pdiMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
		CheckBlocks( a.get(), ra, b.get(), rb, ws.get(), "ico vs hull seed " + std::to_string( seed ) );
		CheckBlocks( b.get(), ra, c.get(), rb, ws.get(), "hull vs torus seed " + std::to_string( seed ) );
	}
}

TEST( PdSfogBlocks, DegenerateCoplanarPoleAndIdenticalOrientations )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	// Coplanar faces: a subdivided box (flat edges are point arcs, face nodes merged).
	Soup box, cup, ico;
	ASSERT_TRUE( smpMakeBox( pdiV3( 1, 0.5, 2 ), 3, &box.soup ) );
	ASSERT_TRUE( smpMakeCup( 0.8, 1.0, 0.15, 12, &cup.soup ) );
	ASSERT_TRUE( smpMakeIcosphere( 1.0, 1, &ico.soup ) );
	MeshPtr mBox = MakeMesh( box.soup ), mCup = MakeMesh( cup.soup ), mIco = MakeMesh( ico.soup );
	ASSERT_TRUE( mBox && mCup && mIco );
	pdiMat33 id = Identity();
	// Identical orientations: every node of the box lies on a reflected node of the other box,
	// and every arc of one on an arc of the other (the same great circles).
	CheckBlocks( mBox.get(), id, mBox.get(), id, ws.get(), "box vs box, identity" );
	CheckBlocks( mCup.get(), id, mCup.get(), id, ws.get(), "cup vs cup, identity" );
	CheckBlocks( mIco.get(), id, mIco.get(), id, ws.get(), "ico vs ico, identity" );
	Rng rng( 61 );
	pdiMat33 r = RandomRotation( rng );
	CheckBlocks( mCup.get(), r, mCup.get(), r, ws.get(), "cup vs cup, same rotation" );
	CheckBlocks( mBox.get(), r, mCup.get(), r, ws.get(), "box vs cup, same rotation" );

	// A face node on the sweep's pole, and arcs on great circles through it: rotate A so that
	// a node sits on the pole (its arcs then lie on meridians), and B so that a reflected node
	// does.
	pdVec3 pole = SweepPole();
	for ( const pdMesh* m : { mBox.get(), mCup.get(), mIco.get() } )
	{
		const pdiSfog* g = m->sfog;
		ASSERT_NE( g, nullptr );
		for ( int node : { 0, g->nodeCount / 2 } )
		{
			pdiMat33 ra = RotationOnto( g->nodeNormals[node], pole );
			pdiMat33 rb = RotationOnto( g->nodeNormals[node], pdiNeg( pole ) );
			CheckBlocks( m, ra, mCup.get(), r, ws.get(), "A node on the pole " + std::to_string( node ) );
			CheckBlocks( mIco.get(), r, m, rb, ws.get(), "B reflected node on the pole " + std::to_string( node ) );
			CheckBlocks( m, ra, m, rb, ws.get(), "both on the pole " + std::to_string( node ) );
			// An arc's great circle through the pole without an endpoint on it: turn about
			// the axis of the arc's great circle until its midpoint is on the pole.
			for ( int e = 0; e < g->edgeCount; e += std::max( 1, g->edgeCount / 3 ) )
			{
				if ( g->arcKind[e] != PDI_SFOG_ARC_MINOR && g->arcKind[e] != PDI_SFOG_ARC_MAJOR )
				{
					continue;
				}
				pdVec3 mid = pdiNormalize(
					pdiAdd( g->nodeNormals[g->arcNode[2 * e]], g->nodeNormals[g->arcNode[2 * e + 1]] ) );
				if ( g->arcKind[e] == PDI_SFOG_ARC_MAJOR )
				{
					mid = pdiNeg( mid );
				}
				pdiMat33 rm = RotationOnto( mid, pole );
				CheckBlocks( m, rm, mCup.get(), r, ws.get(), "arc through the pole " + std::to_string( e ) );
				// And on a meridian: rotate the arc's axis into the equator plane.
				pdVec3 axis = g->arcAxis[e];
				pdVec3 eq = pdiNormalize( pdiCross( pole, pdiCross( axis, pole ) ) );
				if ( pdiLengthSq( eq ) > 0.5 )
				{
					pdiMat33 rq = RotationOnto( axis, eq );
					CheckBlocks( m, rq, m, Mul( rq, id ), ws.get(), "arc on a meridian " + std::to_string( e ) );
				}
			}
		}
	}
}

TEST( PdSfogBlocks, EqualsNaiveOnTheBunny )
{
	std::string path = ModelPath( "pqp_spinning_bunny.tris" );
	if ( path.empty() )
	{
		GTEST_SKIP() << "pqp_spinning_bunny.tris not found: set POLYDEPTH_MODELS to the directory of the "
						"paper's models (EqualsNaiveOnAnOpenMesh covers the same path with a generated mesh)";
	}
	Soup s;
	char error[256];
	if ( !smpLoadSoup( path.c_str(), &s.soup, error, sizeof( error ) ) )
	{
		GTEST_SKIP() << error;
	}
	MeshPtr bunny = MakeMesh( s.soup );
	ASSERT_NE( bunny, nullptr );
	MeshPtr knot = MakeShape( "knot", 1000 );
	ASSERT_NE( knot, nullptr );
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	// pqp_spinning_bunny.tris is not closed: its graph is undecidable and every pair with it is
	// kept, which the blocks sweep must reproduce through its brute-force path (against the
	// knot; the self-overlay would be the 16M-pair product).
	bool decidable = bunny->sfog != nullptr && bunny->sfog->decidable;
	for ( int seed = 0; seed < ( decidable ? 3 : 1 ); ++seed )
	{
		Rng rng( 6300 + seed );
		pdiMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
		if ( decidable )
		{
			Outcome o = CheckBlocks( bunny.get(), ra, bunny.get(), rb, ws.get(), "bunny seed " + std::to_string( seed ) );
			EXPECT_GT( o.purple, 0 );
		}
		CheckBlocks( knot.get(), ra, bunny.get(), rb, ws.get(), "knot vs bunny seed " + std::to_string( seed ) );
	}
}

// A generated stand-in for the bunny: a knot with one triangle removed is open, so its graph is
// undecidable and every pair with it is kept, through the blocks sweep's brute-force path.
TEST( PdSfogBlocks, EqualsNaiveOnAnOpenMesh )
{
	Soup s;
	ASSERT_TRUE( smpMakeShapeByName( "knot", 600, 2.0, &s.soup ) );
	std::vector<double> v( s.soup.vertices, s.soup.vertices + 3 * s.soup.vertexCount );
	std::vector<uint32_t> idx( s.soup.indices, s.soup.indices + 3 * ( s.soup.triangleCount - 1 ) );
	MeshPtr open = MakeRawMesh( v, idx );
	ASSERT_NE( open, nullptr );
	ASSERT_NE( open->sfog, nullptr );
	EXPECT_FALSE( open->sfog->decidable );
	MeshPtr torus = MakeShape( "torus", 300 );
	ASSERT_NE( torus, nullptr );
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	for ( int seed = 0; seed < 2; ++seed )
	{
		Rng rng( 6400 + seed );
		pdiMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
		CheckBlocks( torus.get(), ra, open.get(), rb, ws.get(), "torus vs open knot seed " + std::to_string( seed ) );
		CheckBlocks( open.get(), ra, torus.get(), rb, ws.get(), "open knot vs torus seed " + std::to_string( seed ) );
	}
}

TEST( PdSfogBlocks, RejectsBadInput )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	MeshPtr m = MakeShape( "torus", 200 );
	ASSERT_NE( m, nullptr );
	pdiMat33 id = Identity();
	int count = 7;
	const pdiSfogPair* pairs = reinterpret_cast<const pdiSfogPair*>( 1 );
	EXPECT_EQ( pdiSfog_OverlayBlocks( nullptr, &id, m.get(), &id, ws.get(), &count, &pairs, nullptr ),
			   PD_STATUS_FAILED );
	EXPECT_EQ( count, 0 );
	EXPECT_EQ( pairs, nullptr );
	EXPECT_EQ( pdiSfog_OverlayBlocks( m.get(), nullptr, m.get(), &id, ws.get(), &count, &pairs, nullptr ),
			   PD_STATUS_FAILED );
	EXPECT_EQ( pdiSfog_OverlaySweep( m.get(), &id, m.get(), &id, 99, ws.get(), &count, &pairs, nullptr ),
			   PD_STATUS_FAILED );
}
