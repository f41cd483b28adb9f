// SPDX-License-Identifier: MIT
// The extension module polydepth._io: the model loaders of samples/common (the ones the polydepth
// tool reads with) for Mesh.from_file. A module of its own so that `import polydepth` does not
// load Assimp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>

#if defined( POLYDEPTH_PYTHON_HAVE_LOADERS )
#include "model_io.h"
#endif

namespace py = pybind11;

namespace
{

#if defined( POLYDEPTH_PYTHON_HAVE_LOADERS )
// The soup's arrays as numpy arrays: (n, 3) float64 vertices and (m, 3) uint32 faces.
py::tuple load( const std::string& path )
{
	smpSoup soup{};
	char error[512] = "";
	bool ok;
	{
		py::gil_scoped_release release; // large files take a while
		ok = smpLoadSoup( path.c_str(), &soup, error, sizeof( error ) );
	}
	if ( !ok )
		throw py::value_error( error[0] != '\0' ? std::string( error ) : path + ": cannot read the mesh" );
	py::array_t<double> vertices( { (py::ssize_t)soup.vertexCount, (py::ssize_t)3 } );
	py::array_t<uint32_t> faces( { (py::ssize_t)soup.triangleCount, (py::ssize_t)3 } );
	std::copy( soup.vertices, soup.vertices + 3 * (size_t)soup.vertexCount, vertices.mutable_data() );
	std::copy( soup.indices, soup.indices + 3 * (size_t)soup.triangleCount, faces.mutable_data() );
	smpFreeSoup( &soup );
	return py::make_tuple( vertices, faces );
}
#else
py::tuple load( const std::string& path )
{
	throw py::value_error( path + ": this build of polydepth has no model loaders (samples/ was not configured)" );
}
#endif

} // namespace

PYBIND11_MODULE( _io, m )
{
	m.doc() = "The model loaders of the polydepth tool (OBJ, .tri, .tris; STL, PLY and OFF through Assimp).";
	m.def( "load", &load, py::arg( "path" ),
		   "load(path) -> (vertices, faces): the mesh in a file as (n, 3) float64 and (m, 3) uint32 arrays. "
		   "ValueError naming the file (and the line, for text formats) when it cannot be read." );
}
