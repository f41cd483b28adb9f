// SPDX-License-Identifier: MIT
// Python objects to C API values and back, with the input checks (see convert.h).
#include "bindings.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <sstream>

namespace polydepth::python
{

std::string ArgName::str() const
{
	return index < 0 ? std::string( name ) : std::string( name ) + "[" + std::to_string( index ) + "]";
}

std::string typeName( py::handle obj )
{
	return Py_TYPE( obj.ptr() )->tp_name;
}

namespace
{

std::string shapeString( const py::array& a )
{
	std::string s = "(";
	for ( py::ssize_t i = 0; i < a.ndim(); ++i )
		s += ( i ? ", " : "" ) + std::to_string( a.shape( i ) );
	return s + ( a.ndim() == 1 ? ",)" : ")" );
}

std::string dtypeString( const py::array& a )
{
	return py::str( a.dtype() ).cast<std::string>();
}

// numpy.asarray(obj); TypeError naming arg when numpy cannot make an array of it.
py::array asArray( py::handle obj, const ArgName& arg, const char* expected )
{
	if ( py::isinstance<py::array>( obj ) )
		return py::reinterpret_borrow<py::array>( obj );
	try
	{
		py::array a = py::module_::import( "numpy" ).attr( "asarray" )( obj );
		if ( a.dtype().kind() != 'O' )
			return a;
	}
	catch ( py::error_already_set& )
	{
	}
	throw py::type_error( arg.str() + ": expected " + expected + ", got " + typeName( obj ) );
}

// A float array as (n, 3) float32 or float64, C-contiguous; other real dtypes become float64.
py::array vertexArray( py::handle obj )
{
	const ArgName arg{ "vertices" };
	py::array a = asArray( obj, arg, "an array of shape (n, 3) of float32 or float64" );
	char kind = a.dtype().kind();
	if ( kind != 'f' && kind != 'i' && kind != 'u' )
		throw py::type_error( "vertices: expected float32 or float64 coordinates, got dtype " + dtypeString( a ) );
	if ( a.ndim() != 2 || a.shape( 1 ) != 3 )
		throw py::value_error( "vertices: expected shape (n, 3), got " + shapeString( a ) );
	if ( a.shape( 0 ) > INT_MAX )
		throw py::value_error( "vertices: " + std::to_string( a.shape( 0 ) ) + " vertices is more than a mesh holds" );
	py::array contiguous =
		kind == 'f' && a.itemsize() == 4
			? py::array( py::array_t<float, py::array::c_style | py::array::forcecast>::ensure( a ) )
			: py::array( py::array_t<double, py::array::c_style | py::array::forcecast>::ensure( a ) );
	// A copy of our own (ensure() passes a matching array through): the caller may change theirs
	// while the mesh is built without the GIL, or later, and pickling must give what was built.
	return py::array( contiguous.dtype(), { contiguous.shape( 0 ), (py::ssize_t)3 }, contiguous.data() );
}

// Integer faces as (m, 3) uint32, every index checked to be in [0, vertexCount) (the library
// checks the uint32 values again; this catches the negative and too large ones a cast would wrap).
py::array faceArray( py::handle obj, long long vertexCount )
{
	const ArgName arg{ "faces" };
	py::array a = asArray( obj, arg, "an integer array of shape (m, 3)" );
	char kind = a.dtype().kind();
	if ( kind != 'i' && kind != 'u' )
		throw py::type_error( "faces: expected integer vertex indices, got dtype " + dtypeString( a ) );
	if ( a.ndim() != 2 || a.shape( 1 ) != 3 )
		throw py::value_error( "faces: expected shape (m, 3), got " + shapeString( a ) );
	if ( a.shape( 0 ) > INT_MAX )
		throw py::value_error( "faces: " + std::to_string( a.shape( 0 ) ) + " triangles is more than a mesh holds" );
	py::array_t<uint32_t, py::array::c_style> out( { a.shape( 0 ), (py::ssize_t)3 } );
	uint32_t* o = out.mutable_data();
	auto check = [&]( auto values )
	{
		auto r = values.template unchecked<2>();
		for ( py::ssize_t t = 0; t < r.shape( 0 ); ++t )
			for ( int k = 0; k < 3; ++k )
			{
				auto v = r( t, k );
				if ( v < 0 || (unsigned long long)v >= (unsigned long long)vertexCount )
				{
					std::ostringstream m;
					m << "faces[" << t << "]: triangle " << t << " references vertex " << +v << " of " << vertexCount;
					throw py::value_error( m.str() );
				}
				*o++ = (uint32_t)v;
			}
	};
	if ( kind == 'u' && a.itemsize() == 8 )
		check( py::array_t<unsigned long long, py::array::forcecast>::ensure( a ) );
	else
		check( py::array_t<long long, py::array::forcecast>::ensure( a ) );
	return std::move( out );
}

// The argument a failed mesh report concerns, with the index it names.
ArgName reportArg( const pdMeshReport& r, const pdMeshDef& def )
{
	switch ( r.status )
	{
		case PD_STATUS_INVALID_VERTEX:
			return ArgName{ "vertices", r.firstBadVertex };
		case PD_STATUS_INVALID_INDEX:
		case PD_STATUS_DEGENERATE_TRIANGLE:
			return ArgName{ "faces", r.firstBadTriangle };
		case PD_STATUS_EMPTY_MESH:
			return ArgName{ def.vertexCount == 0 ? "vertices" : "faces" };
		case PD_STATUS_DEGENERATE_MESH:
			return ArgName{ "faces" };
		default:
			return ArgName{ std::strstr( r.message, "vertex" ) != nullptr ? "vertices" : "faces" };
	}
}

} // namespace

// The mesh def's keyword options.
static const OptionField kMeshFields[] = {
	{ "degenerate_area_tolerance", "degenerateAreaTolerance", OptionField::Double,
	  offsetof( pdMeshDef, degenerateAreaTolerance ),
	  "a triangle is degenerate below this area times the squared bounding-box diagonal, or when it repeats "
	  "an index (relative, 0 to 1)" },
	{ "reject_degenerate", "rejectDegenerate", OptionField::Bool, offsetof( pdMeshDef, rejectDegenerate ),
	  "raise ValueError on the first degenerate triangle instead of removing it" },
	{ "build_orientation_graph", "buildOrientationGraph", OptionField::Bool,
	  offsetof( pdMeshDef, buildOrientationGraph ), "build the orientation graph used by orientation pruning" },
	{ "compute_clearance_points", "computeClearancePoints", OptionField::Bool,
	  offsetof( pdMeshDef, computeClearancePoints ),
	  "precompute maximally clear configurations (faster PD queries, same answers)" },
	{ "clearance_grid_resolution", "clearanceGridResolution", OptionField::Int,
	  offsetof( pdMeshDef, clearanceGridResolution ),
	  "voxel cells along the longest bounding-box axis for the clearance field (1 to 1024)" },
};
static const pdMeshDef kMeshDefaults = pdDefaultMeshDef();
const OptionTable kMeshOptions = { "Mesh", kMeshFields, (int)( sizeof( kMeshFields ) / sizeof( kMeshFields[0] ) ),
								   &kMeshDefaults, sizeof( pdMeshDef ) };

Mesh* createMesh( py::handle vertices, py::handle faces, const py::dict& options )
{
	pdMeshDef def = pdDefaultMeshDef();
	std::vector<int> set;
	applyOptions( kMeshOptions, options, &def, &set );
	py::array v = vertexArray( vertices );
	py::array f = faceArray( faces, v.shape( 0 ) );
	def.vertices = v.data();
	def.vertexCount = (int)v.shape( 0 );
	def.vertexType = v.itemsize() == 4 ? PD_SCALAR_FLOAT32 : PD_SCALAR_FLOAT64;
	def.indices = f.data();
	def.triangleCount = (int)f.shape( 0 );
	def.indexType = PD_INDEX_UINT32;
	std::unique_ptr<Mesh> out( new Mesh );
	pdMeshReport report;
	pdMesh* mesh;
	{
		py::gil_scoped_release release; // large meshes take a while (BVH, clearance field)
		mesh = pdCreateMesh( &def, &report );
	}
	if ( mesh == nullptr )
	{
		if ( report.status == PD_STATUS_OUT_OF_MEMORY )
			throw std::bad_alloc();
		std::string message = report.message;
		if ( report.status == PD_STATUS_INVALID_DEF )
		{
			for ( const OptionField& field : kMeshFields )
			{
				size_t at = message.find( field.cName );
				if ( at != std::string::npos )
					message.replace( at, std::strlen( field.cName ), field.name );
			}
			throw py::value_error( "Mesh(): " + message );
		}
		throw py::value_error( reportArg( report, def ).str() + ": " + message );
	}
	out->mesh = mesh;
	out->vertices = v;
	out->faces = f;
	out->options = options;
	return out.release();
}

const pdMesh* toMesh( py::handle obj, const ArgName& arg )
{
	if ( !py::isinstance<Mesh>( obj ) )
		throw py::type_error( arg.str() + ": expected a polydepth.Mesh, got " + typeName( obj ) );
	return obj.cast<const Mesh&>().mesh;
}

// ---------------------------------------------------------------------------------------------
// Poses

namespace
{

std::string number( double x )
{
	char buffer[32];
	std::snprintf( buffer, sizeof( buffer ), "%.9g", x );
	return buffer;
}

// Largest |translation| component a query takes (PDI_MAX_POSITION in the core).
constexpr double kMaxPosition = 1e100;
// R^T R may differ from the identity by this much per entry (float32 matrices round to ~1e-7).
constexpr double kRigidTolerance = 1e-5;

// Reads n doubles from a 1-D array-like of length n; ValueError/TypeError naming arg.
void readVector( py::handle obj, const ArgName& arg, const char* what, int n, double* out )
{
	py::array a = asArray( obj, arg, what );
	char kind = a.dtype().kind();
	if ( kind != 'f' && kind != 'i' && kind != 'u' )
		throw py::type_error( arg.str() + ": expected " + what + ", got dtype " + dtypeString( a ) );
	if ( a.ndim() != 1 || a.shape( 0 ) != n )
		throw py::value_error( arg.str() + ": expected " + what + ", got shape " + shapeString( a ) );
	auto d = py::array_t<double, py::array::forcecast>::ensure( a ).unchecked<1>();
	for ( int i = 0; i < n; ++i )
		out[i] = d( i );
}

} // namespace

pdTransform makeTransform( const double q[4], const double t[3], const ArgName& arg )
{
	for ( int i = 0; i < 4; ++i )
		if ( !std::isfinite( q[i] ) )
			throw py::value_error( arg.str() + ": quaternion component " + std::to_string( i ) + " is not finite (" +
								   number( q[i] ) + ")" );
	for ( int i = 0; i < 3; ++i )
		if ( !std::isfinite( t[i] ) || std::fabs( t[i] ) > kMaxPosition )
			throw py::value_error( arg.str() + ": translation component " + std::to_string( i ) + " is " +
								   ( std::isfinite( t[i] ) ? "beyond 1e100 (" : "not finite (" ) + number( t[i] ) +
								   ")" );
	double norm = std::sqrt( q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] );
	if ( std::fabs( norm - 1.0 ) > 1e-4 )
		throw py::value_error( arg.str() + ": the quaternion (w, x, y, z) is not unit length (norm " + number( norm ) +
							   ")" );
	return pdTransform{ { q[0], q[1], q[2], q[3] }, { t[0], t[1], t[2] } };
}

pdTransform matrixToTransform( const double* m, const ArgName& arg )
{
	for ( int i = 0; i < 16; ++i )
		if ( !std::isfinite( m[i] ) )
			throw py::value_error( arg.str() + ": element [" + std::to_string( i / 4 ) + ", " +
								   std::to_string( i % 4 ) + "] is not finite (" + number( m[i] ) + ")" );
	if ( m[12] != 0.0 || m[13] != 0.0 || m[14] != 0.0 || m[15] != 1.0 )
		throw py::value_error( arg.str() + ": the last row must be [0, 0, 0, 1], got [" + number( m[12] ) + ", " +
							   number( m[13] ) + ", " + number( m[14] ) + ", " + number( m[15] ) + "]" );
	auto r = [m]( int i, int j ) { return m[4 * i + j]; };
	double worst = 0.0;
	for ( int i = 0; i < 3; ++i )
		for ( int j = 0; j < 3; ++j )
		{
			double dot = r( 0, i ) * r( 0, j ) + r( 1, i ) * r( 1, j ) + r( 2, i ) * r( 2, j );
			worst = std::fmax( worst, std::fabs( dot - ( i == j ? 1.0 : 0.0 ) ) );
		}
	if ( worst > kRigidTolerance )
		throw py::value_error( arg.str() + ": the upper-left 3x3 block is not a rotation (R^T R differs from the " +
							   "identity by " + number( worst ) + "; scale or shear is not a rigid pose)" );
	double det = r( 0, 0 ) * ( r( 1, 1 ) * r( 2, 2 ) - r( 1, 2 ) * r( 2, 1 ) ) -
				 r( 0, 1 ) * ( r( 1, 0 ) * r( 2, 2 ) - r( 1, 2 ) * r( 2, 0 ) ) +
				 r( 0, 2 ) * ( r( 1, 0 ) * r( 2, 1 ) - r( 1, 1 ) * r( 2, 0 ) );
	if ( det < 0.0 )
		throw py::value_error( arg.str() + ": the upper-left 3x3 block is a reflection (determinant " + number( det ) +
							   "), not a rotation" );
	// Shepperd's method: the largest of the four squared components decides the branch.
	double q[4];
	double trace = r( 0, 0 ) + r( 1, 1 ) + r( 2, 2 );
	if ( trace >= r( 0, 0 ) && trace >= r( 1, 1 ) && trace >= r( 2, 2 ) )
	{
		double s = 2.0 * std::sqrt( 1.0 + trace );
		q[0] = 0.25 * s;
		q[1] = ( r( 2, 1 ) - r( 1, 2 ) ) / s;
		q[2] = ( r( 0, 2 ) - r( 2, 0 ) ) / s;
		q[3] = ( r( 1, 0 ) - r( 0, 1 ) ) / s;
	}
	else if ( r( 0, 0 ) >= r( 1, 1 ) && r( 0, 0 ) >= r( 2, 2 ) )
	{
		double s = 2.0 * std::sqrt( 1.0 + r( 0, 0 ) - r( 1, 1 ) - r( 2, 2 ) );
		q[0] = ( r( 2, 1 ) - r( 1, 2 ) ) / s;
		q[1] = 0.25 * s;
		q[2] = ( r( 0, 1 ) + r( 1, 0 ) ) / s;
		q[3] = ( r( 0, 2 ) + r( 2, 0 ) ) / s;
	}
	else if ( r( 1, 1 ) >= r( 2, 2 ) )
	{
		double s = 2.0 * std::sqrt( 1.0 - r( 0, 0 ) + r( 1, 1 ) - r( 2, 2 ) );
		q[0] = ( r( 0, 2 ) - r( 2, 0 ) ) / s;
		q[1] = ( r( 0, 1 ) + r( 1, 0 ) ) / s;
		q[2] = 0.25 * s;
		q[3] = ( r( 1, 2 ) + r( 2, 1 ) ) / s;
	}
	else
	{
		double s = 2.0 * std::sqrt( 1.0 - r( 0, 0 ) - r( 1, 1 ) + r( 2, 2 ) );
		q[0] = ( r( 1, 0 ) - r( 0, 1 ) ) / s;
		q[1] = ( r( 0, 2 ) + r( 2, 0 ) ) / s;
		q[2] = ( r( 1, 2 ) + r( 2, 1 ) ) / s;
		q[3] = 0.25 * s;
	}
	double norm = std::sqrt( q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] );
	for ( double& c : q )
		c /= norm;
	const double t[3] = { r( 0, 3 ), r( 1, 3 ), r( 2, 3 ) };
	return makeTransform( q, t, arg );
}

pdVec3 toVec3( py::handle obj, const ArgName& arg )
{
	double v[3];
	readVector( obj, arg, "a 3-vector", 3, v );
	for ( int i = 0; i < 3; ++i )
		if ( !std::isfinite( v[i] ) || std::fabs( v[i] ) > kMaxPosition )
			throw py::value_error( arg.str() + ": component " + std::to_string( i ) + " is " +
								   ( std::isfinite( v[i] ) ? "beyond 1e100 (" : "not finite (" ) + number( v[i] ) +
								   ")" );
	return pdVec3{ v[0], v[1], v[2] };
}

} // namespace polydepth::python

namespace polydepth::python
{

namespace
{

// A (quaternion, translation) pair: a tuple or list of two flat sequences (numbers, not rows);
// their lengths are checked when they are read.
bool isPosePair( py::handle obj )
{
	if ( !( py::isinstance<py::tuple>( obj ) || py::isinstance<py::list>( obj ) ) || py::len( obj ) != 2 )
		return false;
	auto flat = []( py::handle item )
	{
		if ( py::isinstance<py::str>( item ) || !py::hasattr( item, "__len__" ) )
			return false;
		if ( py::len( item ) == 0 )
			return true;
		py::object first = item[py::int_( 0 )];
		return !py::hasattr( first, "__len__" ) || py::isinstance<py::str>( first ) ||
			   py::isinstance<py::bytes>( first );
	};
	py::sequence s = py::reinterpret_borrow<py::sequence>( obj );
	return flat( s[0] ) && flat( s[1] );
}

} // namespace

pdTransform pairToTransform( py::handle quaternion, py::handle translation, const ArgName& arg )
{
	double q[4], t[3];
	readVector( quaternion, arg, "a quaternion (w, x, y, z)", 4, q );
	readVector( translation, arg, "a translation (x, y, z)", 3, t );
	return makeTransform( q, t, arg );
}

pdTransform toTransform( py::handle obj, const ArgName& arg )
{
	if ( py::isinstance<Pose>( obj ) )
		return obj.cast<const Pose&>().transform;
	if ( isPosePair( obj ) )
	{
		py::sequence s = py::reinterpret_borrow<py::sequence>( obj );
		return pairToTransform( s[0], s[1], arg );
	}
	py::array a = asArray( obj, arg, "a 4x4 matrix, a polydepth.Pose or a (quaternion, translation) pair" );
	char kind = a.dtype().kind();
	if ( kind != 'f' && kind != 'i' && kind != 'u' )
		throw py::type_error( arg.str() + ": expected a 4x4 matrix of numbers, got dtype " + dtypeString( a ) );
	if ( a.ndim() != 2 || a.shape( 0 ) != 4 || a.shape( 1 ) != 4 )
		throw py::value_error( arg.str() + ": expected a 4x4 homogeneous matrix, got shape " + shapeString( a ) );
	auto m = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure( a );
	return matrixToTransform( m.data(), arg );
}

std::vector<pdTransform> toTransforms( py::handle obj, const char* arg, long long* outCount )
{
	std::vector<pdTransform> out;
	if ( py::isinstance<Pose>( obj ) || isPosePair( obj ) )
	{
		out.push_back( toTransform( obj, ArgName{ arg } ) );
		*outCount = -1;
		return out;
	}
	bool sequenceOfPoses = false;
	if ( ( py::isinstance<py::list>( obj ) || py::isinstance<py::tuple>( obj ) ) && py::len( obj ) > 0 )
	{
		py::handle first = py::reinterpret_borrow<py::sequence>( obj )[0];
		sequenceOfPoses = py::isinstance<Pose>( first ) || isPosePair( first );
	}
	if ( sequenceOfPoses )
	{
		py::sequence s = py::reinterpret_borrow<py::sequence>( obj );
		for ( size_t i = 0; i < s.size(); ++i )
			out.push_back( toTransform( s[i], ArgName{ arg, (long long)i } ) );
		*outCount = (long long)out.size();
		return out;
	}
	const char* expected = "an array of 4x4 matrices of shape (k, 4, 4), one 4x4 matrix or a sequence of poses";
	py::array a = asArray( obj, ArgName{ arg }, expected );
	char kind = a.dtype().kind();
	if ( kind != 'f' && kind != 'i' && kind != 'u' )
		throw py::type_error( std::string( arg ) + ": expected " + expected + ", got dtype " + dtypeString( a ) );
	if ( a.ndim() == 2 && a.shape( 0 ) == 4 && a.shape( 1 ) == 4 )
	{
		out.push_back( toTransform( a, ArgName{ arg } ) );
		*outCount = -1;
		return out;
	}
	if ( a.ndim() != 3 || a.shape( 1 ) != 4 || a.shape( 2 ) != 4 )
		throw py::value_error( std::string( arg ) + ": expected shape (k, 4, 4) or (4, 4), got " + shapeString( a ) );
	if ( a.shape( 0 ) > INT_MAX )
		throw py::value_error( std::string( arg ) + ": more poses than a batch takes" );
	auto m = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure( a );
	out.reserve( (size_t)a.shape( 0 ) );
	for ( py::ssize_t i = 0; i < a.shape( 0 ); ++i )
		out.push_back( matrixToTransform( m.data() + 16 * i, ArgName{ arg, (long long)i } ) );
	*outCount = (long long)out.size();
	return out;
}

// ---------------------------------------------------------------------------------------------
// Options

namespace
{

const OptionField* findField( const OptionTable& table, const std::string& name )
{
	for ( int i = 0; i < table.count; ++i )
		if ( name == table.fields[i].name )
			return &table.fields[i];
	return nullptr;
}

bool isBool( py::handle value )
{
	return PyBool_Check( value.ptr() ) || typeName( value ) == std::string( "numpy.bool_" );
}

// Writes one keyword's value into the def field.
void setField( const OptionField& f, py::handle value, char* def )
{
	const std::string name = f.name;
	const std::string got = typeName( value );
	if ( f.kind == OptionField::Bool )
	{
		if ( !isBool( value ) )
			throw py::type_error( name + ": expected a bool, got " + got );
		bool b = PyObject_IsTrue( value.ptr() ) == 1;
		std::memcpy( def + f.offset, &b, sizeof( b ) );
		return;
	}
	if ( isBool( value ) || PyUnicode_Check( value.ptr() ) || PyBytes_Check( value.ptr() ) )
		throw py::type_error( name + ": expected " + ( f.kind == OptionField::Double ? "a number" : "an int" ) +
							  ", got " + got );
	if ( f.kind == OptionField::Double )
	{
		double d = PyFloat_AsDouble( value.ptr() );
		if ( d == -1.0 && PyErr_Occurred() )
		{
			PyErr_Clear();
			throw py::type_error( name + ": expected a number, got " + got );
		}
		std::memcpy( def + f.offset, &d, sizeof( d ) );
		return;
	}
	if ( !PyIndex_Check( value.ptr() ) )
		throw py::type_error( name + ": expected an int, got " + got );
	py::int_ i = py::reinterpret_steal<py::int_>( PyNumber_Index( value.ptr() ) );
	int overflow = 0;
	long long v = PyLong_AsLongLongAndOverflow( i.ptr(), &overflow );
	long long lo = f.kind == OptionField::Int ? INT_MIN : 0;
	long long hi = f.kind == OptionField::Int ? INT_MAX : UINT_MAX;
	if ( overflow != 0 || v < lo || v > hi )
		throw py::value_error( name + ": " + py::str( i ).cast<std::string>() + " is outside [" + std::to_string( lo ) +
							   ", " + std::to_string( hi ) + "]" );
	if ( f.kind == OptionField::Int )
	{
		int n = (int)v;
		std::memcpy( def + f.offset, &n, sizeof( n ) );
	}
	else
	{
		unsigned n = (unsigned)v;
		std::memcpy( def + f.offset, &n, sizeof( n ) );
	}
}

size_t fieldSize( const OptionField& f )
{
	switch ( f.kind )
	{
		case OptionField::Bool:
			return sizeof( bool );
		case OptionField::Int:
			return sizeof( int );
		case OptionField::Unsigned:
			return sizeof( unsigned );
		default:
			return sizeof( double );
	}
}

py::object fieldValue( const OptionField& f, const char* def )
{
	switch ( f.kind )
	{
		case OptionField::Bool:
		{
			bool b;
			std::memcpy( &b, def + f.offset, sizeof( b ) );
			return py::bool_( b );
		}
		case OptionField::Int:
		{
			int n;
			std::memcpy( &n, def + f.offset, sizeof( n ) );
			return py::int_( n );
		}
		case OptionField::Unsigned:
		{
			unsigned n;
			std::memcpy( &n, def + f.offset, sizeof( n ) );
			return py::int_( n );
		}
		default:
		{
			double d;
			std::memcpy( &d, def + f.offset, sizeof( d ) );
			return py::float_( d );
		}
	}
}

} // namespace

void applyOptions( const OptionTable& table, const py::dict& kwargs, void* def, std::vector<int>* outSet,
				   const std::vector<const char*>& skip )
{
	std::memcpy( def, table.defaults, table.defSize );
	for ( auto item : kwargs )
	{
		std::string key = py::str( item.first );
		bool skipped = false;
		for ( const char* s : skip )
			skipped = skipped || key == s;
		if ( skipped )
			continue;
		const OptionField* f = findField( table, key );
		if ( f == nullptr )
		{
			std::string names;
			for ( int i = 0; i < table.count; ++i )
				names += std::string( i ? ", " : "" ) + table.fields[i].name;
			throw py::type_error( std::string( table.function ) + "() got an unexpected keyword argument '" + key +
								  "' (options: " + names + ")" );
		}
		setField( *f, item.second, static_cast<char*>( def ) );
		outSet->push_back( (int)( f - table.fields ) );
	}
}

py::dict optionDefaults( const OptionTable& table )
{
	py::dict d;
	for ( int i = 0; i < table.count; ++i )
		d[table.fields[i].name] = fieldValue( table.fields[i], static_cast<const char*>( table.defaults ) );
	return d;
}

std::string optionDoc( const OptionTable& table )
{
	static const char* kinds[] = { "bool", "int", "int", "float" };
	std::string doc;
	for ( int i = 0; i < table.count; ++i )
	{
		const OptionField& f = table.fields[i];
		doc += std::string( "    " ) + f.name + " (" + kinds[f.kind] + ", default " +
			   py::repr( fieldValue( f, static_cast<const char*>( table.defaults ) ) ).cast<std::string>() +
			   "): " + f.doc + "\n";
	}
	return doc;
}

void raiseInvalidOption( const OptionTable& table, const void* def, const std::vector<int>& set,
						 pdStatus ( *probe )( const void* def ) )
{
	std::vector<char> trial( table.defSize );
	std::string given;
	for ( int index : set )
	{
		const OptionField& f = table.fields[index];
		std::string value = py::repr( fieldValue( f, static_cast<const char*>( def ) ) ).cast<std::string>();
		given += std::string( given.empty() ? "" : ", " ) + f.name + "=" + value;
		std::memcpy( trial.data(), table.defaults, table.defSize );
		std::memcpy( trial.data() + f.offset, static_cast<const char*>( def ) + f.offset, fieldSize( f ) );
		if ( probe( trial.data() ) == PD_STATUS_INVALID_DEF )
			throw py::value_error( std::string( table.function ) + "(): " + f.name + "=" + value +
								   " is out of range (" + f.doc + ")" );
	}
	throw py::value_error( std::string( table.function ) + "(): the library rejects these options together: " + given );
}

void raiseForInputStatus( pdStatus status, const char* function )
{
	std::string prefix = std::string( function ) + "(): ";
	switch ( status )
	{
		case PD_STATUS_OUT_OF_MEMORY:
			throw std::bad_alloc();
		case PD_STATUS_INVALID_POSE:
		case PD_STATUS_INVALID_MESH:
		case PD_STATUS_INVALID_ARGUMENT:
		case PD_STATUS_INVALID_DEF:
			throw py::value_error( prefix + pdGetStatusString( status ) );
		case PD_STATUS_DEF_NOT_INITIALIZED:
			throw std::runtime_error( prefix + pdGetStatusString( status ) );
		default:
			return;
	}
}

namespace
{

// A tetrahedron (4 vertices, 4 triangles) at the origin, scaled.
pdMesh* makeTetrahedron( double scale )
{
	const double v[] = { 0, 0, 0, scale, 0, 0, 0, scale, 0, 0, 0, scale };
	const uint32_t f[] = { 0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2 };
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = v;
	def.vertexCount = 4;
	def.indices = f;
	def.triangleCount = 4;
	return pdCreateMesh( &def, nullptr );
}

} // namespace

const pdMesh* probeMeshA()
{
	static pdMesh* mesh = makeTetrahedron( 1.0 );
	return mesh;
}

const pdMesh* probeMeshB()
{
	static pdMesh* mesh = makeTetrahedron( 0.5 );
	return mesh;
}

namespace
{

struct ThreadWorkspace
{
	pdWorkspace* workspace = nullptr;
	~ThreadWorkspace() { pdDestroyWorkspace( workspace ); }
};

} // namespace

pdWorkspace* threadWorkspace()
{
	static thread_local ThreadWorkspace holder;
	if ( holder.workspace == nullptr )
		holder.workspace = pdCreateWorkspace( NULL );
	if ( holder.workspace == nullptr )
		throw std::bad_alloc();
	return holder.workspace;
}

py::array_t<double> vec3Array( pdVec3 v )
{
	py::array_t<double> a( 3 );
	double* d = a.mutable_data();
	d[0] = v.x;
	d[1] = v.y;
	d[2] = v.z;
	return a;
}

py::array_t<double> vec3Rows( const pdVec3* v, int count )
{
	py::array_t<double> a( { (py::ssize_t)count, (py::ssize_t)3 } );
	double* d = a.mutable_data();
	for ( int i = 0; i < count; ++i )
	{
		d[3 * i] = v[i].x;
		d[3 * i + 1] = v[i].y;
		d[3 * i + 2] = v[i].z;
	}
	return a;
}

} // namespace polydepth::python
