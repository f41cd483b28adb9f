// SPDX-License-Identifier: MIT
// Conversions between Python objects and the C API: meshes, poses, option keywords, and the
// checks that turn bad input into ValueError / TypeError naming the argument and the index.
#pragma once

#include <polydepth/polydepth.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <vector>

namespace polydepth::python
{

namespace py = pybind11;

/// The name of an argument, with the index of an item inside it when there is one:
/// "poses_a[17]" for ArgName{ "poses_a", 17 }, "pose_a" for ArgName{ "pose_a" }.
struct ArgName
{
	const char* name;
	long long index = -1;
	std::string str() const;
};

/// The Python class name of an object, for messages ("list", "numpy.ndarray").
std::string typeName( py::handle obj );

/// An immutable mesh as Python holds it: the library's mesh and the input it was made from
/// (pickling rebuilds the same mesh from it).
struct Mesh
{
	pdMesh* mesh = nullptr;
	py::array vertices; ///< (n, 3) float32 or float64, as given (C-contiguous copy)
	py::array faces;    ///< (m, 3) uint32, as given
	py::dict options;   ///< the creation keywords given
	Mesh() = default;
	Mesh( const Mesh& ) = delete;
	Mesh& operator=( const Mesh& ) = delete;
	~Mesh() { pdDestroyMesh( mesh ); }
};

/// A rigid pose as a quaternion (w, x, y, z) and a translation (the Python class Pose).
struct Pose
{
	pdTransform transform;
};

/// Makes a Mesh from array-likes: vertices (n, 3) of floats, faces (m, 3) of integers, and the
/// mesh def's fields as keywords.
Mesh* createMesh( py::handle vertices, py::handle faces, const py::dict& options );

/// A pose: a 4x4 homogeneous matrix (array-like), a polydepth.Pose or a pair
/// (quaternion (w, x, y, z), translation (x, y, z)).
pdTransform toTransform( py::handle obj, const ArgName& arg );

/// A 4x4 rigid matrix (row-major, 16 values) as a pose; raises ValueError naming arg when it
/// is not finite, its last row is not (0 0 0 1) or its rotation block is not a rotation.
pdTransform matrixToTransform( const double* m, const ArgName& arg );

/// A quaternion (w, x, y, z) and a translation as a pose; raises ValueError when they are not
/// finite, the quaternion is not unit length to 1e-4 or the translation is beyond 1e100.
pdTransform makeTransform( const double q[4], const double t[3], const ArgName& arg );

/// A pose from a quaternion (w, x, y, z) and a translation, each an array-like of numbers.
pdTransform pairToTransform( py::handle quaternion, py::handle translation, const ArgName& arg );

/// A 3-vector from an array-like (a position); ValueError / TypeError naming arg.
pdVec3 toVec3( py::handle obj, const ArgName& arg );

/// k poses from a (k, 4, 4) array, one (4, 4) pose for every item (k = -1: taken from the
/// other argument), or a sequence of poses in any form toTransform takes.
std::vector<pdTransform> toTransforms( py::handle obj, const char* arg, long long* outCount );

/// A mesh argument: a polydepth.Mesh (TypeError naming arg otherwise).
const pdMesh* toMesh( py::handle obj, const ArgName& arg );

/// A def field settable by keyword: its Python name, its C name (as the library's messages
/// spell it), its type and its place in the def.
struct OptionField
{
	enum Kind
	{
		Bool,
		Int,
		Unsigned,
		Double
	};
	const char* name;
	const char* cName;
	Kind kind;
	size_t offset;
	const char* doc; ///< one line for the docstring: meaning, units, accepted range
};

/// The keyword options of one def type: the table and the def's defaults.
struct OptionTable
{
	const char* function; ///< "penetration", "Mesh", ... for messages
	const OptionField* fields;
	int count;
	const void* defaults; ///< a def made by the library's pdDefault...Def()
	size_t defSize;
};

/// Writes the keywords into def (a copy of the table's defaults): TypeError for an unknown
/// keyword or a value of the wrong type, ValueError for an integer that does not fit. Keys that
/// are listed in skip are left to the caller. The fields set are appended to outSet.
void applyOptions( const OptionTable& table, const py::dict& kwargs, void* def, std::vector<int>* outSet,
				   const std::vector<const char*>& skip = {} );

/// The table's defaults as a dict {name: value}.
py::dict optionDefaults( const OptionTable& table );

/// The docstring lines for the options ("name (type, default X): doc").
std::string optionDoc( const OptionTable& table );

/// A query rejected its def (PD_STATUS_INVALID_DEF): finds which keyword the library rejects by
/// trying each one alone on the defaults with the probe, and raises ValueError naming it.
/// probe(def) runs the query kind on a small valid pair and returns its status.
[[noreturn]] void raiseInvalidOption( const OptionTable& table, const void* def, const std::vector<int>& set,
									  pdStatus ( *probe )( const void* def ) );

/// Raises for a status that means bad input reached the library anyway (a pose, a def, a mesh);
/// any other status is returned to the caller in the result.
void raiseForInputStatus( pdStatus status, const char* function );

/// Two small meshes for probing defs (created once, kept for the process's life).
const pdMesh* probeMeshA();
const pdMesh* probeMeshB();

/// The calling thread's workspace (one per thread, made on first use).
pdWorkspace* threadWorkspace();

/// Numpy arrays from C values.
py::array_t<double> vec3Array( pdVec3 v );
py::array_t<double> vec3Rows( const pdVec3* v, int count );

} // namespace polydepth::python
