// SPDX-License-Identifier: MIT
// Recording and replaying pdContactPair_Generate calls (plugin/src/contact_record.c): a replay
// gives each call exactly its recorded inputs, so its contacts are bit-identical to the
// original calls'; bad files are rejected with a message naming the file and the record.
#include "contact_pair.h" // the private pair state (plugin/src)
#include "polydepth/contact_record.h"
#include "shapes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace
{

std::string tempPath( const char* name )
{
	return ::testing::TempDir() + name;
}

pdMesh* makeTorus()
{
	smpSoup soup{};
	if ( !smpMakeTorus( 0.5, 0.15, 32, 12, &soup ) )
		return nullptr;
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	smpFreeSoup( &soup );
	return mesh;
}

pdMesh* makeBox()
{
	smpSoup soup{};
	if ( !smpMakeBox( { 2.0, 0.1, 2.0 }, 3, &soup ) )
		return nullptr;
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	smpFreeSoup( &soup );
	return mesh;
}

// Everything a call writes that a solver uses, compared bit for bit.
void expectSameSet( const pdContactManifoldSet& a, const pdContactManifoldSet& b, int call )
{
	ASSERT_EQ( a.status, b.status ) << "call " << call;
	ASSERT_EQ( a.state, b.state ) << "call " << call;
	ASSERT_EQ( a.manifoldCount, b.manifoldCount ) << "call " << call;
	EXPECT_EQ( std::memcmp( &a.translation, &b.translation, sizeof( a.translation ) ), 0 ) << "call " << call;
	for ( int m = 0; m < a.manifoldCount; ++m )
	{
		ASSERT_EQ( a.manifolds[m].pointCount, b.manifolds[m].pointCount ) << "call " << call;
		EXPECT_EQ( a.manifolds[m].slot, b.manifolds[m].slot ) << "call " << call;
		EXPECT_EQ( std::memcmp( &a.manifolds[m].normal, &b.manifolds[m].normal, sizeof( pdVec3 ) ), 0 )
			<< "call " << call;
		for ( int p = 0; p < a.manifolds[m].pointCount; ++p )
		{
			EXPECT_EQ( std::memcmp( &a.manifolds[m].points[p], &b.manifolds[m].points[p], sizeof( pdContactPoint ) ),
					   0 )
				<< "call " << call << " region " << m << " point " << p;
		}
	}
}

} // namespace

// Two tori falling onto a box and onto each other over 40 frames (apart, speculative,
// touching and penetrating calls, the pair state carried from call to call): each call is
// recorded before it runs, then the replay's calls give the same contacts.
TEST( PdContactRecord, ReplayGivesTheRecordedCallsTheirContacts )
{
	pdMesh* torus = makeTorus();
	pdMesh* box = makeBox();
	ASSERT_TRUE( torus && box );
	std::string path = tempPath( "contact_record_replay.pdcr" );
	pdError error = {};
	pdContactRecorder* recorder = pdCreateContactRecorder( path.c_str(), &error );
	ASSERT_NE( recorder, nullptr );
	ASSERT_EQ( error.status, PD_STATUS_OK );

	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdContactPair pairs[2];
	pdContactPair_Reset( &pairs[0] );
	pdContactPair_Reset( &pairs[1] );
	pdContactDef def = pdDefaultContactDef();
	def.speculativeDistance = 0.05;
	std::vector<pdContactManifoldSet> originals;
	int penetrating = 0, separated = 0;
	for ( int frame = 0; frame < 40; ++frame )
	{
		// Torus 1 falls from 0.4 m above the box through it; torus 2 comes down onto torus 1, tilted.
		double fall = 0.4 - 0.012 * frame;
		pdTransform onBox = pdIdentityTransform();
		onBox.p = { 0.0, 0.25 + fall, 0.0 };
		onBox.q = { std::cos( 0.6 ), std::sin( 0.6 ), 0.0, 0.0 };
		pdTransform boxPose = pdIdentityTransform();
		pdTransform upper = onBox;
		upper.p = { 0.3, 0.55 + fall - 0.004 * frame, 0.1 };
		upper.q = { std::cos( 0.5 + 0.01 * frame ), 0.0, 0.0, std::sin( 0.5 + 0.01 * frame ) };
		pdContactPair_SetRigidMotion( &pairs[0], { 0.0, -0.012, 0.0 }, { 0.0, 0.0, 0.0 }, onBox.p );
		pdContactPair_SetRigidMotion( &pairs[1], { 0.0, -0.004, 0.0 }, { 0.0, 0.02, 0.0 }, upper.p );
		const pdMesh* meshA[2] = { torus, torus };
		const pdMesh* meshB[2] = { box, torus };
		const pdTransform* poseA[2] = { &onBox, &upper };
		const pdTransform* poseB[2] = { &boxPose, &onBox };
		for ( int k = 0; k < 2; ++k )
		{
			ASSERT_EQ( pdContactRecorder_Write( recorder, &pairs[k], meshA[k], poseA[k], meshB[k], poseB[k], &def ),
					   PD_STATUS_OK );
			pdContactManifoldSet set;
			pdContactPair_Generate( &pairs[k], meshA[k], poseA[k], meshB[k], poseB[k], &def, ws, &set );
			originals.push_back( set );
			penetrating += set.state == PD_STATE_PENETRATING;
			separated += set.state == PD_STATE_SEPARATED;
		}
	}
	EXPECT_EQ( pdContactRecorder_GetCallCount( recorder ), 80 );
	ASSERT_EQ( pdContactRecorder_Finish( recorder ), PD_STATUS_OK );
	pdDestroyContactRecorder( recorder );
	// The scene must exercise the paths for the comparison to mean anything.
	EXPECT_GT( penetrating, 10 );
	EXPECT_GT( separated, 10 );
	pdContactReplay* replay = pdCreateContactReplay( path.c_str(), &error );
	ASSERT_NE( replay, nullptr ) << error.message;
	pdWorkspace* fresh = pdCreateWorkspace( NULL ); // a replay has its own workspace
	int call = 0;
	for ( ;; )
	{
		pdContactCall c;
		bool done = false;
		ASSERT_EQ( pdContactReplay_ReadNext( replay, &c, &done, &error ), PD_STATUS_OK ) << error.message;
		if ( done )
			break;
		ASSERT_LT( call, (int)originals.size() );
		EXPECT_NE( c.meshA, torus ); // the replay's own meshes
		pdContactManifoldSet set;
		pdContactPair_Generate( &c.pair, c.meshA, &c.poseA, c.meshB, &c.poseB, &c.def, fresh, &set );
		expectSameSet( set, originals[call], call );
		call += 1;
	}
	EXPECT_EQ( call, 80 );
	pdDestroyContactReplay( replay );
	pdDestroyWorkspace( fresh );
	pdDestroyWorkspace( ws );
	pdDestroyMesh( torus );
	pdDestroyMesh( box );
	std::remove( path.c_str() );
}

TEST( PdContactRecord, BadFilesAreRejectedWithTheFileAndTheRecord )
{
	pdError error = {};
	std::string missing = tempPath( "contact_record_missing.pdcr" );
	std::remove( missing.c_str() );
	EXPECT_EQ( pdCreateContactReplay( missing.c_str(), &error ), nullptr );
	EXPECT_EQ( error.status, PD_STATUS_INVALID_ARGUMENT );
	EXPECT_NE( std::string( error.message ).find( missing ), std::string::npos ) << error.message;
	EXPECT_EQ( pdCreateContactReplay( nullptr, &error ), nullptr );
	EXPECT_EQ( pdCreateContactRecorder( nullptr, &error ), nullptr );
	EXPECT_EQ( error.status, PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdCreateContactRecorder( "/nonexistent-directory/x.pdcr", &error ), nullptr );
	EXPECT_EQ( error.status, PD_STATUS_INVALID_ARGUMENT );

	// Not a recording.
	std::string garbage = tempPath( "contact_record_garbage.pdcr" );
	FILE* f = std::fopen( garbage.c_str(), "wb" );
	ASSERT_NE( f, nullptr );
	std::fputs( "v 0 0 0\nf 1 2 3\n", f );
	std::fclose( f );
	EXPECT_EQ( pdCreateContactReplay( garbage.c_str(), &error ), nullptr );
	EXPECT_NE( std::string( error.message ).find( "not a contact recording" ), std::string::npos ) << error.message;

	// A recording cut in the middle of its second call: the first call reads, then an error
	// naming the record; never a half-read call.
	pdMesh* torus = makeTorus();
	ASSERT_NE( torus, nullptr );
	std::string path = tempPath( "contact_record_cut.pdcr" );
	pdContactRecorder* recorder = pdCreateContactRecorder( path.c_str(), &error );
	ASSERT_NE( recorder, nullptr );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdTransform a = pdIdentityTransform(), b = pdIdentityTransform();
	b.p = { 0.0, 0.2, 0.0 };
	ASSERT_EQ( pdContactRecorder_Write( recorder, &pair, torus, &a, torus, &b, nullptr ), PD_STATUS_OK );
	ASSERT_EQ( pdContactRecorder_Write( recorder, &pair, torus, &a, torus, &b, nullptr ), PD_STATUS_OK );
	EXPECT_EQ( pdContactRecorder_Write( recorder, nullptr, torus, &a, torus, &b, nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
	int notAMesh[64] = {};
	EXPECT_EQ(
		pdContactRecorder_Write( recorder, &pair, torus, &a, reinterpret_cast<const pdMesh*>( notAMesh ), &b, nullptr ),
		PD_STATUS_INVALID_MESH );
	ASSERT_EQ( pdContactRecorder_Finish( recorder ), PD_STATUS_OK );
	pdDestroyContactRecorder( recorder );
	f = std::fopen( path.c_str(), "rb" );
	ASSERT_NE( f, nullptr );
	std::vector<char> bytes;
	int ch;
	while ( ( ch = std::fgetc( f ) ) != EOF )
		bytes.push_back( (char)ch );
	std::fclose( f );
	f = std::fopen( path.c_str(), "wb" );
	ASSERT_NE( f, nullptr );
	std::fwrite( bytes.data(), 1, bytes.size() - 100, f );
	std::fclose( f );
	pdContactReplay* replay = pdCreateContactReplay( path.c_str(), &error );
	ASSERT_NE( replay, nullptr ) << error.message;
	pdContactCall call;
	bool done = true;
	EXPECT_EQ( pdContactReplay_ReadNext( replay, &call, &done, &error ), PD_STATUS_OK ) << error.message;
	EXPECT_FALSE( done );
	EXPECT_EQ( pdContactReplay_ReadNext( replay, &call, &done, &error ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_NE( std::string( error.message ).find( "record 3: truncated call" ), std::string::npos ) << error.message;
	EXPECT_NE( std::string( error.message ).find( path.substr( 0, 40 ) ), std::string::npos ) << error.message;
	pdDestroyContactReplay( replay );

	// A pair state no plugin call writes (a point count past the manifold's four): rejected
	// before the plugin could index with it. The pair is the file's last bytes.
	size_t pairAt = bytes.size() - sizeof( pdContactPair );
	pdContactPair bad;
	std::memcpy( &bad, bytes.data() + pairAt, sizeof( bad ) );
	pdiPairStateOf( &bad )->slotPointCount[2] = 1000;
	std::memcpy( bytes.data() + pairAt, &bad, sizeof( bad ) );
	f = std::fopen( path.c_str(), "wb" );
	ASSERT_NE( f, nullptr );
	std::fwrite( bytes.data(), 1, bytes.size(), f );
	std::fclose( f );
	replay = pdCreateContactReplay( path.c_str(), &error );
	ASSERT_NE( replay, nullptr ) << error.message;
	EXPECT_EQ( pdContactReplay_ReadNext( replay, &call, &done, &error ), PD_STATUS_OK ) << error.message;
	EXPECT_EQ( pdContactReplay_ReadNext( replay, &call, &done, &error ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_NE( std::string( error.message ).find( "record 3: pair state out of range" ), std::string::npos ) << error.message;
	pdDestroyContactReplay( replay );
	EXPECT_EQ( pdContactReplay_ReadNext( nullptr, &call, &done, &error ), PD_STATUS_INVALID_ARGUMENT );
	pdDestroyContactReplay( nullptr ); // no-op
	pdDestroyMesh( torus );
	std::remove( path.c_str() );
	std::remove( garbage.c_str() );
}

#ifdef POLYDEPTH_REPLAY_SEEDS_DIR
TEST( PdContactRecord, FuzzSeedsAreReadableByThisBuild )
{
	// The recording reader's fuzz seeds follow the pair state's layout: a seed this build
	// refuses would leave the fuzzer stuck at the header.
	for ( const char* name : { "header-only.pdcr", "one-call-tetrahedra.pdcr", "two-calls-tetrahedra.pdcr" } )
	{
		std::string path = std::string( POLYDEPTH_REPLAY_SEEDS_DIR ) + "/" + name;
		pdError error = {};
		pdContactReplay* replay = pdCreateContactReplay( path.c_str(), &error );
		ASSERT_NE( replay, nullptr ) << path << ": " << error.message;
		int calls = 0;
		for ( ;; )
		{
			pdContactCall call;
			bool done = false;
			ASSERT_EQ( pdContactReplay_ReadNext( replay, &call, &done, &error ), PD_STATUS_OK ) << path << ": " << error.message;
			if ( done )
				break;
			++calls;
		}
		pdDestroyContactReplay( replay );
		EXPECT_EQ( calls, name[0] == 'h' ? 0 : name[0] == 'o' ? 1 : 2 ) << path;
	}
}

TEST( PdContactRecord, HeldContactOutOfRangeIsRejected )
{
	// A recorded pair whose held contact no plugin call writes (a point count past four, a NaN
	// point) is refused before the plugin could answer from it.
	std::string seed = std::string( POLYDEPTH_REPLAY_SEEDS_DIR ) + "/one-call-tetrahedra.pdcr";
	FILE* f = std::fopen( seed.c_str(), "rb" );
	ASSERT_NE( f, nullptr );
	std::vector<unsigned char> bytes;
	for ( int c = std::fgetc( f ); c != EOF; c = std::fgetc( f ) )
		bytes.push_back( (unsigned char)c );
	std::fclose( f );
	ASSERT_GT( bytes.size(), sizeof( pdContactPair ) );
	size_t pairAt = bytes.size() - sizeof( pdContactPair );
	for ( int variant = 0; variant < 2; ++variant )
	{
		pdContactPair bad;
		std::memcpy( &bad, bytes.data() + pairAt, sizeof( bad ) );
		pdiPairStateOf( &bad )->holdCount = 1;
		pdiPairStateOf( &bad )->holdPointCount[0] = variant == 0 ? 5 : 1;
		pdiPairStateOf( &bad )->holdPointA[0][0].y = variant == 0 ? 0.0 : std::nan( "" );
		std::vector<unsigned char> edited = bytes;
		std::memcpy( edited.data() + pairAt, &bad, sizeof( bad ) );
		std::string path = ::testing::TempDir() + "pd-held-out-of-range.pdcr";
		FILE* out = std::fopen( path.c_str(), "wb" );
		ASSERT_NE( out, nullptr );
		std::fwrite( edited.data(), 1, edited.size(), out );
		std::fclose( out );
		pdError error = {};
		pdContactReplay* replay = pdCreateContactReplay( path.c_str(), &error );
		ASSERT_NE( replay, nullptr ) << error.message;
		pdContactCall call;
		bool done = false;
		EXPECT_EQ( pdContactReplay_ReadNext( replay, &call, &done, &error ), PD_STATUS_INVALID_ARGUMENT ) << variant;
		EXPECT_NE( std::string( error.message ).find( "pair state out of range" ), std::string::npos ) << error.message;
		pdDestroyContactReplay( replay );
		std::remove( path.c_str() );
	}
}
#endif
