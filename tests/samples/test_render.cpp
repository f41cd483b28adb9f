// SPDX-License-Identifier: MIT
// The headless renderer (samples/render): a fixed generated scene rendered off-screen through
// OSMesa matches a stored reference image within a small per-pixel tolerance; PNG round trip;
// sheets and labels. Set PD_UPDATE_RENDER_REFERENCE=1 to rewrite the reference after an
// intended change (and look at it before committing).
#ifdef POLYDEPTH_HAVE_RENDER

#include "render.h"
#include "shapes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

// Mesa's OSMesa keeps a few hundred bytes per context until exit (even after
// OSMesaDestroyContext); LeakSanitizer (ASan CI) must not blame the renderer for them.
extern "C" const char* __lsan_default_suppressions()
{
	return "leak:libOSMesa.so\n";
}

namespace
{

const int kWidth = 160;
const int kHeight = 120;

std::string testReferencePath()
{
	return std::string( POLYDEPTH_TEST_DATA_DIR ) + "/render_reference.png";
}

struct testRenderMesh
{
	smpRenderMesh* mesh = nullptr;
	~testRenderMesh() { smpDestroyRenderMesh( mesh ); }
};

bool testMakeRenderMesh( bool ok, smpSoup* soup, testRenderMesh* out )
{
	if ( !ok )
		return false;
	out->mesh = smpCreateRenderMesh( soup->vertices, soup->vertexCount, soup->indices, soup->triangleCount, 40.0 );
	smpFreeSoup( soup );
	return out->mesh != nullptr;
}

/// A torus leaning on a box next to a sphere, lit and shadowed, with two contact overlays.
std::vector<uint8_t> testRenderFixedScene( double torusX )
{
	char error[256] = "";
	smpRenderer* r = smpCreateRenderer( kWidth, kHeight, 2, error, sizeof( error ) );
	EXPECT_NE( r, nullptr ) << error;
	if ( r == nullptr )
		return {};
	smpSoup soup = {};
	testRenderMesh torus, box, sphere;
	EXPECT_TRUE( testMakeRenderMesh( smpMakeTorus( 0.5, 0.15, 48, 16, &soup ), &soup, &torus ) );
	EXPECT_TRUE( testMakeRenderMesh( smpMakeBox( pdVec3{ 0.4, 0.4, 0.4 }, 1, &soup ), &soup, &box ) );
	EXPECT_TRUE( testMakeRenderMesh( smpMakeIcosphere( 0.35, 2, &soup ), &soup, &sphere ) );

	smpRenderFrameDef frame = smpDefaultRenderFrameDef();
	frame.eye[0] = 2.6;
	frame.eye[1] = 2.2;
	frame.eye[2] = 3.4;
	frame.target[0] = 0.0;
	frame.target[1] = 0.35;
	frame.target[2] = 0.0;
	frame.groundHalfSize = 4.0;
	frame.gridSpacing = 0.5;
	smpRenderer_Begin( r, &frame );
	const double s = std::sqrt( 0.5 );
	smpRenderPose torusPose = { { std::cos( 0.3 ), std::sin( 0.3 ), 0.0, 0.0 }, { torusX, 0.6, 0.1 } };
	smpRenderPose boxPose = { { s, 0.0, s, 0.0 }, { -0.2, 0.4, -0.3 } };
	smpRenderPose spherePose = { { 1.0, 0.0, 0.0, 0.0 }, { 0.9, 0.35, 0.6 } };
	const float orange[3] = { 0.90f, 0.55f, 0.20f }, grey[3] = { 0.70f, 0.72f, 0.78f }, blue[3] = { 0.3f, 0.6f, 0.9f };
	smpRenderer_DrawMesh( r, box.mesh, &boxPose, grey, SMP_RENDER_CAST_SHADOW );
	smpRenderer_DrawMesh( r, torus.mesh, &torusPose, orange, SMP_RENDER_CAST_SHADOW );
	smpRenderer_DrawMesh( r, sphere.mesh, &spherePose, blue, SMP_RENDER_CAST_SHADOW | SMP_RENDER_TWO_SIDED );
	const double p[3] = { 0.9, 0.0, 0.6 }, tip[3] = { 0.9, 0.3, 0.6 };
	const float red[3] = { 0.95f, 0.1f, 0.1f }, yellow[3] = { 1.0f, 0.85f, 0.1f };
	smpRenderer_DrawLine( r, p, tip, yellow );
	smpRenderer_DrawPoint( r, p, red, 3.0f );
	smpRenderer_End( r );
	std::vector<uint8_t> pixels( smpRenderer_GetPixels( r ), smpRenderer_GetPixels( r ) + 4 * kWidth * kHeight );
	smpDestroyRenderer( r );
	return pixels;
}

struct testImageDiff
{
	int maxDelta = 0;
	double meanDelta = 0.0;
	double fractionOver = 0.0; // pixels with a channel off by more than the tolerance
};

testImageDiff testCompare( const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int tolerance )
{
	testImageDiff d;
	size_t pixels = a.size() / 4;
	int over = 0;
	double sum = 0.0;
	for ( size_t i = 0; i < pixels; ++i )
	{
		int worst = 0;
		for ( int c = 0; c < 3; ++c )
		{
			int delta = std::abs( (int)a[4 * i + c] - (int)b[4 * i + c] );
			worst = std::max( worst, delta );
			sum += delta;
		}
		d.maxDelta = std::max( d.maxDelta, worst );
		if ( worst > tolerance )
			++over;
	}
	d.meanDelta = sum / ( 3.0 * (double)pixels );
	d.fractionOver = (double)over / (double)pixels;
	return d;
}

} // namespace

TEST( PdRender, FixedSceneMatchesReference )
{
	std::vector<uint8_t> image = testRenderFixedScene( 0.35 );
	ASSERT_EQ( image.size(), (size_t)4 * kWidth * kHeight );
	const char* update = std::getenv( "PD_UPDATE_RENDER_REFERENCE" );
	char error[512] = "";
	if ( update != nullptr && update[0] == '1' )
		ASSERT_TRUE( smpWritePng( testReferencePath().c_str(), image.data(), kWidth, kHeight, error, sizeof( error ) ) )
			<< error;

	uint8_t* reference = nullptr;
	int w = 0, h = 0;
	ASSERT_TRUE( smpReadPng( testReferencePath().c_str(), &reference, &w, &h, error, sizeof( error ) ) ) << error;
	std::vector<uint8_t> ref( reference, reference + 4 * w * h );
	std::free( reference );
	ASSERT_EQ( w, kWidth );
	ASSERT_EQ( h, kHeight );

	// Rasterisers may differ in the last bit of shading and on edges: allow small per-pixel
	// differences everywhere and larger ones on a few edge pixels.
	testImageDiff d = testCompare( image, ref, 12 );
	EXPECT_LT( d.meanDelta, 1.5 ) << "max " << d.maxDelta << ", over tolerance " << d.fractionOver;
	EXPECT_LT( d.fractionOver, 0.01 ) << "max " << d.maxDelta << ", mean " << d.meanDelta;

	// The comparison can fail: the same scene with the torus moved by 0.3 m does not match.
	std::vector<uint8_t> moved = testRenderFixedScene( 0.05 );
	testImageDiff dm = testCompare( moved, ref, 12 );
	EXPECT_GT( dm.fractionOver, 0.01 ) << "mean " << dm.meanDelta;

	// The picture is not blank: ground, sky, objects and a shadow give many distinct colours.
	int dark = 0;
	for ( size_t i = 0; i < image.size(); i += 4 )
		if ( image[i] < 120 && image[i + 1] < 120 && image[i + 2] < 120 )
			++dark;
	EXPECT_GT( dark, 50 ) << "no shadow or dark shading";
}

TEST( PdRender, PngRoundTripIsExact )
{
	std::vector<uint8_t> image( 4 * 7 * 5 );
	for ( size_t i = 0; i < image.size(); ++i )
		image[i] = ( i % 4 == 3 ) ? 255 : (uint8_t)( ( i * 37 ) & 0xff );
	std::string path = testing::TempDir() + "pd_render_roundtrip.png";
	char error[512] = "";
	ASSERT_TRUE( smpWritePng( path.c_str(), image.data(), 7, 5, error, sizeof( error ) ) ) << error;
	uint8_t* back = nullptr;
	int w = 0, h = 0;
	ASSERT_TRUE( smpReadPng( path.c_str(), &back, &w, &h, error, sizeof( error ) ) ) << error;
	ASSERT_EQ( w, 7 );
	ASSERT_EQ( h, 5 );
	EXPECT_EQ( std::vector<uint8_t>( back, back + image.size() ), image );
	std::free( back );
	EXPECT_FALSE( smpReadPng( "/nonexistent/dir/none.png", &back, &w, &h, error, sizeof( error ) ) );
	EXPECT_EQ( back, nullptr );
	EXPECT_NE( std::string( error ).find( "none.png" ), std::string::npos ) << error;
}

TEST( PdRender, SheetAndLabel )
{
	std::vector<uint8_t> a( 4 * 4 * 3, 0 ), b( 4 * 4 * 3, 100 );
	const uint8_t* tiles[3] = { a.data(), b.data(), a.data() };
	int w = 0, h = 0;
	smpComposeSheet( tiles, 3, 4, 3, 2, 1, nullptr, &w, &h );
	EXPECT_EQ( w, 2 * 5 + 1 );
	EXPECT_EQ( h, 2 * 4 + 1 );
	std::vector<uint8_t> sheet( 4 * w * h );
	smpComposeSheet( tiles, 3, 4, 3, 2, 1, sheet.data(), &w, &h );
	EXPECT_EQ( sheet[0], 255 );                 // padding is white
	EXPECT_EQ( sheet[4 * ( 1 * w + 1 )], 0 );   // first tile
	EXPECT_EQ( sheet[4 * ( 1 * w + 6 )], 100 ); // second tile, to the right

	std::vector<uint8_t> canvas( 4 * 40 * 10, 0 );
	const uint8_t white[3] = { 255, 255, 255 };
	smpDrawLabel( canvas.data(), 40, 10, 1, 1, "T=1", 1, white );
	int lit = 0;
	for ( size_t i = 0; i < canvas.size(); i += 4 )
		lit += canvas[i] == 255;
	EXPECT_GT( lit, 10 );
	smpDrawLabel( canvas.data(), 40, 10, 1000, -1000, "off the canvas", 3, white ); // clipped, no crash
}

TEST( PdRender, BadMeshIsRejected )
{
	const double v[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	const uint32_t bad[3] = { 0, 1, 3 };
	const uint32_t good[3] = { 0, 1, 2 };
	EXPECT_EQ( smpCreateRenderMesh( v, 3, bad, 1, 30.0 ), nullptr );
	EXPECT_EQ( smpCreateRenderMesh( nullptr, 3, good, 1, 30.0 ), nullptr );
	smpRenderMesh* m = smpCreateRenderMesh( v, 3, good, 1, 30.0 );
	EXPECT_NE( m, nullptr );
	smpDestroyRenderMesh( m );
	char error[128] = "";
	EXPECT_EQ( smpCreateRenderer( 0, 10, 1, error, sizeof( error ) ), nullptr );
	EXPECT_STRNE( error, "" );
}

#else

#include <gtest/gtest.h>

TEST( PdRender, FixedSceneMatchesReference )
{
	GTEST_SKIP() << "built without the renderer (OSMesa and libpng not found)";
}

#endif
