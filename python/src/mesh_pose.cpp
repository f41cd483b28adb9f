// SPDX-License-Identifier: MIT
// The Mesh and Pose classes: creation from numpy arrays, what a mesh holds, pickling.
#include "bindings.h"

#include <cmath>
#include <string>

namespace polydepth::python
{

namespace
{

py::array_t<int> intRows( const int* values, int rows, int columns )
{
	py::array_t<int> a( { (py::ssize_t)rows, (py::ssize_t)columns } );
	std::copy( values, values + (size_t)rows * columns, a.mutable_data() );
	return a;
}

// The rotation matrix of a quaternion (w, x, y, z), normalised first.
void rotationMatrix( pdQuat q, double r[3][3] )
{
	double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	double w = q.w / n, x = q.x / n, y = q.y / n, z = q.z / n;
	r[0][0] = 1 - 2 * ( y * y + z * z );
	r[0][1] = 2 * ( x * y - w * z );
	r[0][2] = 2 * ( x * z + w * y );
	r[1][0] = 2 * ( x * y + w * z );
	r[1][1] = 1 - 2 * ( x * x + z * z );
	r[1][2] = 2 * ( y * z - w * x );
	r[2][0] = 2 * ( x * z - w * y );
	r[2][1] = 2 * ( y * z + w * x );
	r[2][2] = 1 - 2 * ( x * x + y * y );
}

Pose makePose( py::handle quaternion, py::handle translation )
{
	return Pose{ pairToTransform( quaternion, translation, ArgName{ "Pose" } ) };
}

std::string meshRepr( const Mesh& m )
{
	pdMeshInfo info = pdMesh_GetInfo( m.mesh );
	return "<polydepth.Mesh " + std::to_string( info.vertexCount ) + " vertices, " +
		   std::to_string( info.triangleCount ) + " triangles" +
		   ( info.convex   ? ", convex"
			 : info.closed ? ", closed"
						   : "" ) +
		   ">";
}

// The triangle blocks of meshio-like cells: a list of blocks with .type and .data (meshio 4 and
// 5), a list of (type, data) pairs, or a dict {type: data}. Other cell types are left out; none
// at all is an error naming what there was.
py::object triangleCells( py::handle cells, const std::string& owner )
{
	py::list blocks, others;
	auto add = [&]( py::handle type, py::handle data )
	{
		std::string name = py::str( type );
		if ( name == "triangle" )
			blocks.append( data );
		else
			others.append( py::str( type ) );
	};
	if ( py::isinstance<py::dict>( cells ) )
	{
		for ( auto item : cells.cast<py::dict>() )
			add( item.first, item.second );
	}
	else
	{
		py::ssize_t i = 0;
		for ( py::handle block : py::iter( cells ) )
		{
			if ( py::hasattr( block, "type" ) && py::hasattr( block, "data" ) )
				add( block.attr( "type" ), block.attr( "data" ) );
			else if ( py::isinstance<py::tuple>( block ) && py::len( block ) == 2 )
				add( block.cast<py::tuple>()[0], block.cast<py::tuple>()[1] );
			else
				throw py::type_error( owner + ".cells[" + std::to_string( i ) +
									  "]: expected a cell block with .type and .data or a (type, data) pair, got " +
									  typeName( block ) );
			++i;
		}
	}
	if ( py::len( blocks ) == 0 )
		throw py::value_error( owner + ".cells: no triangle cells (found: " +
							   ( py::len( others ) == 0 ? std::string( "none" )
														: py::str( ", " ).attr( "join" )( others ).cast<std::string>() ) +
							   "); a polydepth.Mesh is made of triangles" );
	if ( py::len( blocks ) == 1 )
		return blocks[0];
	return py::module_::import( "numpy" ).attr( "concatenate" )( blocks );
}

// Mesh(obj): the vertex and face arrays of a mesh object from another library, found by their
// attribute names (trimesh: vertices, faces; open3d: vertices, triangles; meshio: points, cells),
// without importing that library.
std::pair<py::object, py::object> meshArrays( py::handle obj )
{
	std::string owner = typeName( obj );
	if ( py::hasattr( obj, "vertices" ) && py::hasattr( obj, "faces" ) )
		return { obj.attr( "vertices" ), obj.attr( "faces" ) };
	if ( py::hasattr( obj, "vertices" ) && py::hasattr( obj, "triangles" ) )
		return { obj.attr( "vertices" ), obj.attr( "triangles" ) };
	if ( py::hasattr( obj, "points" ) && py::hasattr( obj, "cells" ) )
		return { obj.attr( "points" ), triangleCells( obj.attr( "cells" ), owner ) };
	throw py::type_error( "Mesh(): expected (vertices, faces) arrays or a mesh object with vertices and faces "
						  "(trimesh), vertices and triangles (open3d) or points and cells (meshio); got a " +
						  owner + " without them" );
}

} // namespace

static void bindPose( py::module_& m )
{
	py::class_<Pose>( m, "Pose",
					  "Pose(quaternion=(1, 0, 0, 0), translation=(0, 0, 0))\n\n"
					  "A rigid pose: a unit quaternion (w, x, y, z) -- the scalar first, as in the polydepth tool; "
					  "scipy's Rotation.as_quat() gives (x, y, z, w) -- and a translation (length units of the "
					  "vertices). world = rotate(q, local) + translation. Queries take it, a 4x4 homogeneous "
					  "matrix or a (quaternion, translation) pair. Picklable.\n\nExample:\n"
					  "    >>> import numpy as np, polydepth\n"
					  "    >>> p = polydepth.Pose((np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)), (1, 2, 3))  # 90 deg about z\n"
					  "    >>> np.round(p.matrix() @ [1, 0, 0, 1], 6).tolist()\n"
					  "    [1.0, 3.0, 3.0, 1.0]\n" )
		.def( py::init( &makePose ), py::arg( "quaternion" ) = py::make_tuple( 1.0, 0.0, 0.0, 0.0 ),
			  py::arg( "translation" ) = py::make_tuple( 0.0, 0.0, 0.0 ) )
		.def_static(
			"from_matrix", []( py::handle matrix ) { return Pose{ toTransform( matrix, ArgName{ "matrix" } ) }; },
			py::arg( "matrix" ),
			"Pose.from_matrix(matrix) -> Pose\n\nThe pose of a 4x4 rigid homogeneous matrix (ValueError when it is "
			"not rigid).\n\nExample:\n"
			"    >>> import numpy as np, polydepth\n"
			"    >>> m = np.eye(4); m[:3, 3] = (1, 2, 3)\n"
			"    >>> polydepth.Pose.from_matrix(m).translation.tolist()\n"
			"    [1.0, 2.0, 3.0]\n" )
		.def_property_readonly(
			"quaternion",
			[]( const Pose& p )
			{
				py::array_t<double> a( 4 );
				double* d = a.mutable_data();
				d[0] = p.transform.q.w;
				d[1] = p.transform.q.x;
				d[2] = p.transform.q.y;
				d[3] = p.transform.q.z;
				return a;
			},
			"(4,) float64: the unit quaternion (w, x, y, z), the scalar first" )
		.def_property_readonly(
			"translation", []( const Pose& p ) { return vec3Array( p.transform.p ); },
			"(3,) float64: where the mesh's origin goes, world frame" )
		.def(
			"matrix",
			[]( const Pose& p )
			{
				double r[3][3];
				rotationMatrix( p.transform.q, r );
				py::array_t<double> a( { 4, 4 } );
				auto d = a.mutable_unchecked<2>();
				const double t[3] = { p.transform.p.x, p.transform.p.y, p.transform.p.z };
				for ( int i = 0; i < 3; ++i )
				{
					for ( int j = 0; j < 3; ++j )
						d( i, j ) = r[i][j];
					d( i, 3 ) = t[i];
					d( 3, i ) = 0.0;
				}
				d( 3, 3 ) = 1.0;
				return a;
			},
			"matrix() -> (4, 4) float64\n\nThe 4x4 homogeneous matrix (rotation block, translation column)."
			"\n\nExample:\n"
			"    >>> import polydepth\n"
			"    >>> polydepth.Pose(translation=(1, 2, 3)).matrix()[:3, 3].tolist()\n"
			"    [1.0, 2.0, 3.0]\n" )
		.def( py::pickle(
			[]( const Pose& p )
			{
				const pdTransform& t = p.transform;
				return py::make_tuple( py::make_tuple( t.q.w, t.q.x, t.q.y, t.q.z ),
									   py::make_tuple( t.p.x, t.p.y, t.p.z ) );
			},
			[]( const py::tuple& state )
			{
				if ( state.size() != 2 )
					throw py::value_error( "Pose: bad pickle state" );
				return makePose( state[0], state[1] );
			} ) )
		.def( "__repr__",
			  []( const Pose& p )
			  {
				  const pdTransform& t = p.transform;
				  return py::str(
							 "polydepth.Pose(quaternion=({!r}, {!r}, {!r}, {!r}), translation=({!r}, {!r}, {!r}))" )
					  .format( t.q.w, t.q.x, t.q.y, t.q.z, t.p.x, t.p.y, t.p.z )
					  .cast<std::string>();
			  } );
}

static void bindMesh( py::module_& m )
{
	std::string doc =
		"Mesh(vertices, faces, **options) or Mesh(mesh_object, **options): an immutable triangle mesh (a polygon "
		"soup: it need not be closed or manifold), shareable between threads, picklable.\n\n"
		"vertices: (n, 3) float64 or float32 (other real dtypes become float64), in any length unit (results "
		"come in the same unit); faces: (m, 3) integer vertex indices, 0-based, counter-clockwise seen from "
		"outside for closed meshes. The arrays are copied. Degenerate triangles are removed (faces keeps the "
		"rest; input_triangles maps them back) unless reject_degenerate is set. Bad input raises ValueError or "
		"TypeError naming the argument and the index.\n\n"
		"mesh_object: a mesh of another library, read by its arrays without importing that library: "
		"vertices and faces (trimesh.Trimesh), vertices and triangles (open3d.geometry.TriangleMesh), or "
		"points and cells, whose triangle blocks are taken (meshio.Mesh). Files: Mesh.from_file(path); a "
		"box: Mesh.box(size).\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]])\n"
		"    >>> f = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])\n"
		"    >>> polydepth.Mesh(v, f)\n"
		"    <polydepth.Mesh 4 vertices, 4 triangles, convex>\n\nOptions:\n" +
		optionDoc( kMeshOptions );
	py::class_<Mesh>( m, "Mesh", doc.c_str() )
		.def( py::init(
				  []( py::handle vertices, py::handle faces, const py::kwargs& options )
				  {
					  if ( !faces.is_none() )
						  return createMesh( vertices, faces, options );
					  auto arrays = meshArrays( vertices );
					  return createMesh( arrays.first, arrays.second, options );
				  } ),
			  py::arg( "vertices" ), py::arg( "faces" ) = py::none() )
		.def_property_readonly(
			"vertex_count", []( const Mesh& m ) { return pdMesh_GetInfo( m.mesh ).vertexCount; }, "vertices given" )
		.def_property_readonly(
			"triangle_count", []( const Mesh& m ) { return pdMesh_GetInfo( m.mesh ).triangleCount; },
			"triangles kept (degenerate ones removed)" )
		.def_property_readonly(
			"vertices",
			[]( const Mesh& m )
			{
				pdMeshInfo info = pdMesh_GetInfo( m.mesh );
				return vec3Rows( info.vertices, info.vertexCount );
			},
			"(n, 3) float64, the mesh's own frame" )
		.def_property_readonly(
			"faces",
			[]( const Mesh& m )
			{
				pdMeshInfo info = pdMesh_GetInfo( m.mesh );
				return intRows( &info.triangles[0][0], info.triangleCount, 3 );
			},
			"(m, 3) vertex indices of the kept triangles; queries report kept-triangle indices" )
		.def_property_readonly(
			"input_triangles",
			[]( const Mesh& m )
			{
				pdMeshInfo info = pdMesh_GetInfo( m.mesh );
				return py::array_t<int>( info.triangleCount, info.inputTriangles );
			},
			"the input index of each kept triangle" )
		.def_property_readonly(
			"removed_triangles",
			[]( const Mesh& m )
			{
				pdMeshInfo info = pdMesh_GetInfo( m.mesh );
				return py::array_t<int>( info.removedTriangleCount, info.removedTriangles );
			},
			"input indices of the degenerate triangles removed" )
		.def_property_readonly(
			"bounds",
			[]( const Mesh& m )
			{
				pdMeshInfo info = pdMesh_GetInfo( m.mesh );
				const pdVec3 b[2] = { info.boundsMin, info.boundsMax };
				return vec3Rows( b, 2 );
			},
			"(2, 3): the axis-aligned box's min and max corners, the mesh's own frame" )
		.def_property_readonly(
			"closed", []( const Mesh& m ) { return pdMesh_GetInfo( m.mesh ).closed; },
			"every edge shared by exactly two consistently oriented faces" )
		.def_property_readonly(
			"convex", []( const Mesh& m ) { return pdMesh_GetInfo( m.mesh ).convex; },
			"closed and convex (queries then take exact convex paths)" )
		.def_property_readonly(
			"memory_bytes", []( const Mesh& m ) { return pdMesh_GetInfo( m.mesh ).memoryBytes; },
			"bytes the library holds for the mesh (BVH, clearance field, orientation graph)" )
		.def( py::pickle( []( const Mesh& m ) { return py::make_tuple( m.vertices, m.faces, m.options ); },
						  []( const py::tuple& state )
						  {
							  if ( state.size() != 3 || !py::isinstance<py::dict>( state[2] ) )
								  throw py::value_error( "Mesh: bad pickle state" );
							  return std::unique_ptr<Mesh>(
								  createMesh( state[0], state[1], state[2].cast<py::dict>() ) );
						  } ) )
		.def( "__repr__", &meshRepr );
}

void bindMeshAndPose( py::module_& m )
{
	bindPose( m );
	bindMesh( m );
}

} // namespace polydepth::python
