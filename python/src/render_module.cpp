// SPDX-License-Identifier: MIT
// The extension module polydepth._render: the samples' headless renderer (OSMesa, loaded at run
// time, and libpng) for polydepth.render, a picture without matplotlib. A module of its own so
// that `import polydepth` loads neither.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <string>
#include <vector>

#if defined( POLYDEPTH_PYTHON_HAVE_RENDER )
#include "render.h"
#endif

namespace py = pybind11;

namespace
{

/// One mesh to draw: (n, 3) float64 vertices, (m, 3) uint32 faces, pose (w, x, y, z) and
/// translation, RGB in [0, 1], SMP_RENDER_* flags.
struct Item
{
	py::array_t<double, py::array::c_style | py::array::forcecast> vertices;
	py::array_t<uint32_t, py::array::c_style | py::array::forcecast> faces;
	std::array<double, 4> quaternion;
	std::array<double, 3> translation;
	std::array<float, 3> rgb;
	unsigned flags;
};

struct Line
{
	std::array<double, 3> a, b;
	std::array<float, 3> rgb;
};

struct Label
{
	int x, y;
	std::string text;
	int scale;
	std::array<int, 3> rgb;
};

#if defined( POLYDEPTH_PYTHON_HAVE_RENDER )
void render( const std::string& path, const std::vector<Item>& items, const std::vector<Line>& lines,
			 const std::vector<Label>& labels, std::array<double, 3> eye, std::array<double, 3> target,
			 std::array<double, 3> up, int width, int height, double fovY, double groundY, double groundHalfSize,
			 double gridSpacing, bool shadows )
{
	for ( size_t i = 0; i < items.size(); ++i )
	{
		const Item& item = items[i];
		if ( item.vertices.ndim() != 2 || item.vertices.shape( 1 ) != 3 || item.faces.ndim() != 2 ||
			 item.faces.shape( 1 ) != 3 )
			throw py::value_error( "items[" + std::to_string( i ) + "]: expected (n, 3) vertices and (m, 3) faces" );
		for ( py::ssize_t f = 0; f < item.faces.size(); ++f )
			if ( item.faces.data()[f] >= (uint32_t)item.vertices.shape( 0 ) )
				throw py::value_error( "items[" + std::to_string( i ) + "]: a face references vertex " +
									   std::to_string( item.faces.data()[f] ) + " of " +
									   std::to_string( item.vertices.shape( 0 ) ) );
	}
	char error[256] = "";
	smpRenderer* r = smpCreateRenderer( width, height, 2, error, sizeof( error ) );
	if ( r == nullptr )
		throw std::runtime_error( std::string( "headless renderer: " ) + error );
	std::vector<smpRenderMesh*> meshes;
	for ( const Item& item : items )
		meshes.push_back( smpCreateRenderMesh( item.vertices.data(), (int)item.vertices.shape( 0 ), item.faces.data(),
											   (int)item.faces.shape( 0 ), 35.0 ) );
	smpRenderFrameDef def = smpDefaultRenderFrameDef();
	for ( int k = 0; k < 3; ++k )
	{
		def.eye[k] = eye[k];
		def.target[k] = target[k];
		def.up[k] = up[k];
	}
	def.fovY = fovY;
	def.groundY = groundY;
	def.groundHalfSize = groundHalfSize;
	def.gridSpacing = gridSpacing;
	def.shadows = shadows;
	smpRenderer_Begin( r, &def );
	for ( size_t i = 0; i < items.size(); ++i )
	{
		if ( meshes[i] == nullptr )
			continue;
		smpRenderPose pose;
		for ( int k = 0; k < 4; ++k )
			pose.q[k] = items[i].quaternion[k];
		for ( int k = 0; k < 3; ++k )
			pose.p[k] = items[i].translation[k];
		smpRenderer_DrawMesh( r, meshes[i], &pose, items[i].rgb.data(), items[i].flags );
	}
	for ( const Line& line : lines )
		smpRenderer_DrawLine( r, line.a.data(), line.b.data(), line.rgb.data() );
	smpRenderer_End( r );
	for ( const Label& label : labels )
	{
		const uint8_t rgb[3] = { (uint8_t)label.rgb[0], (uint8_t)label.rgb[1], (uint8_t)label.rgb[2] };
		smpRenderer_DrawLabel( r, label.x, label.y, label.text.c_str(), label.scale, rgb );
	}
	bool written = smpWritePng( path.c_str(), smpRenderer_GetPixels( r ), width, height, error, sizeof( error ) );
	for ( smpRenderMesh* m : meshes )
		smpDestroyRenderMesh( m );
	smpDestroyRenderer( r );
	if ( !written )
		throw std::runtime_error( path + ": " + error );
}
constexpr bool kAvailable = true;
#else
void render( const std::string&, const std::vector<Item>&, const std::vector<Line>&, const std::vector<Label>&,
			 std::array<double, 3>, std::array<double, 3>, std::array<double, 3>, int, int, double, double, double,
			 double, bool )
{
	throw std::runtime_error( "this build of polydepth has no headless renderer (it needs OSMesa and libpng)" );
}
constexpr bool kAvailable = false;
#endif

} // namespace

PYBIND11_MODULE( _render, m )
{
	m.doc() = "The samples' headless renderer (OSMesa): shaded meshes on a ground grid, written as PNG.";
	m.attr( "available" ) = kAvailable;
	py::class_<Item>( m, "Item" )
		.def( py::init(
				  []( py::array_t<double, py::array::c_style | py::array::forcecast> v,
					  py::array_t<uint32_t, py::array::c_style | py::array::forcecast> f, std::array<double, 4> q,
					  std::array<double, 3> t, std::array<float, 3> rgb, unsigned flags ) {
					  return Item{ v, f, q, t, rgb, flags };
				  } ),
			  py::arg( "vertices" ), py::arg( "faces" ), py::arg( "quaternion" ), py::arg( "translation" ),
			  py::arg( "rgb" ), py::arg( "flags" ) = 1u );
	py::class_<Line>( m, "Line" )
		.def( py::init( []( std::array<double, 3> a, std::array<double, 3> b, std::array<float, 3> rgb )
						{ return Line{ a, b, rgb }; } ),
			  py::arg( "a" ), py::arg( "b" ), py::arg( "rgb" ) );
	py::class_<Label>( m, "Label" )
		.def( py::init( []( int x, int y, std::string text, int scale, std::array<int, 3> rgb )
						{ return Label{ x, y, std::move( text ), scale, rgb }; } ),
			  py::arg( "x" ), py::arg( "y" ), py::arg( "text" ), py::arg( "scale" ) = 2,
			  py::arg( "rgb" ) = std::array<int, 3>{ 20, 20, 20 } );
	m.def( "render", &render, py::arg( "path" ), py::arg( "items" ), py::arg( "lines" ), py::arg( "labels" ),
		   py::arg( "eye" ), py::arg( "target" ), py::arg( "up" ), py::arg( "width" ), py::arg( "height" ),
		   py::arg( "fov_y" ), py::arg( "ground_y" ), py::arg( "ground_half_size" ), py::arg( "grid_spacing" ),
		   py::arg( "shadows" ),
		   "Draws the items (and lines, then labels) headless and writes a PNG; RuntimeError when OSMesa cannot "
		   "start or the file cannot be written." );
}
