// SPDX-License-Identifier: MIT
// Shared helpers of polydepth-bench: options, timing, medians, model lookup, JSON output.
#pragma once

#include "model_io.h"
#include "polydepth/polydepth.h"
#include "polydepth/research.h"
#include "shapes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace bench
{

struct Options
{
	bool json = false;
	bool quick = false;
	std::string modelsDir;
	std::string csvPath;
	int repeats = 0; ///< 0 = the subcommand's default
	unsigned seed = 1;
	std::string only;          ///< run only the model or case with this name (pd-random, pd-path)
	int oracleCases = -1;      ///< pd-random: oracle cases per model; -1 = the default, 0 = none
	bool cases = false;        ///< pd-random: one line per query on stderr (pose, answer, oracle)
	int randomDirections = -1; ///< pd-random, pd-path: pdPenetrationSettings.randomDirections; -1 = the default
	int coneDirections = -1;   ///< pd-random, pd-path: pdPenetrationSettings.coneDirections; -1 = the default
	int maxStarts = -1;        ///< pd-random, pd-path: pdPenetrationSettings.maxStarts; -1 = the default
	std::string parts = "abc"; ///< sfog: which of the tables (a), (b), (c) to run
	std::string inputPath;     ///< contact-replay: the recording
	bool withConvex = false;   ///< debris: also the convex-decomposition peer (SMP_SCENE_ALGO_CONVEX)
	int threads = 0;           ///< awake: > 0 runs GImpact and PolyDepth on 1 and on this many threads
	int seeds = 0;             ///< awake: seeds of the chaotic scenes (sphere-pour, tall-stack); 0 = 8 (--quick 2)
	std::string recordCalls;   ///< awake: record PolyDepth's plugin calls of the --only scene to this file
	int solverIterations = 0;  ///< awake: Bullet's solver iterations per step; 0 = the scene's (10)
};

inline double nowUs()
{
	using namespace std::chrono;
	return (double)duration_cast<nanoseconds>( steady_clock::now().time_since_epoch() ).count() * 1e-3;
}

inline double median( std::vector<double> v )
{
	if ( v.empty() )
	{
		return 0.0;
	}
	std::sort( v.begin(), v.end() );
	size_t n = v.size();
	return n % 2 == 1 ? v[n / 2] : 0.5 * ( v[n / 2 - 1] + v[n / 2] );
}

inline double percentile( std::vector<double> v, double p )
{
	if ( v.empty() )
	{
		return 0.0;
	}
	std::sort( v.begin(), v.end() );
	double k = p * (double)( v.size() - 1 );
	size_t i = (size_t)k;
	double f = k - (double)i;
	return i + 1 < v.size() ? v[i] * ( 1.0 - f ) + v[i + 1] * f : v.back();
}

/// Returns the path of a benchmark model, or "" when it is missing (no --models directory, or
/// no such file in it).
inline std::string modelPath( const Options& o, const char* name )
{
	if ( o.modelsDir.empty() )
	{
		return "";
	}
	std::string p = o.modelsDir + "/" + name;
	FILE* f = std::fopen( p.c_str(), "rb" );
	if ( f == nullptr )
	{
		return "";
	}
	std::fclose( f );
	return p;
}

/// Loads the paper's model file into soup. When the file is missing, generates a stand-in of
/// about its size instead (a distorted torus: closed and non-convex, like the paper's bunnies),
/// says so on stderr after "who: ", and sets *outStandIn. False when neither works.
inline bool loadModelFile( const Options& o, const char* file, const char* who, smpSoup* soup, bool* outStandIn )
{
	*outStandIn = false;
	std::string path = modelPath( o, file );
	char err[256] = "";
	if ( !path.empty() && smpLoadSoup( path.c_str(), soup, err, sizeof( err ) ) )
	{
		return true;
	}
	int tris = std::string( file ) == "bunny_noholes.tri" ? 69000 : 2200;
	std::fprintf( stderr, "%s: %s %s; using a generated stand-in: a distorted torus of about %d triangles\n", who, file,
				  o.modelsDir.empty() ? "needs --models DIR or POLYDEPTH_MODELS"
									  : ( "not found in " + o.modelsDir ).c_str(),
				  tris );
	*outStandIn = true;
	return smpMakeShapeByName( "distorted-torus", tris, 2.0, soup );
}

/// Owns a soup and the mesh made from it.
struct Model
{
	std::string name;
	smpSoup soup{};
	pdMesh* mesh = nullptr;
	pdVec3 shift{ 0, 0, 0 }; ///< translation centreSoup applied to a file's vertices
	Model() = default;
	Model( const Model& ) = delete;
	Model& operator=( const Model& ) = delete;
	~Model()
	{
		pdDestroyMesh( mesh );
		smpFreeSoup( &soup );
	}
	bool finish( std::string* error )
	{
		pdMeshReport report;
		mesh = smpSoupCreateMesh( &soup, &report );
		if ( mesh == nullptr && error != nullptr )
		{
			*error = name + ": " + report.message;
		}
		return mesh != nullptr;
	}
	int triangles() const { return mesh != nullptr ? pdMesh_GetInfo( mesh ).triangleCount : 0; }
};

/// Centre a soup's bounding box on the origin (benchmark poses are relative to the centre).
/// Moves the soup's bounding-box centre to the origin; returns the translation applied.
inline pdVec3 centreSoup( smpSoup* soup )
{
	double lo[3] = { 1e300, 1e300, 1e300 }, hi[3] = { -1e300, -1e300, -1e300 };
	for ( int i = 0; i < soup->vertexCount; ++i )
	{
		for ( int k = 0; k < 3; ++k )
		{
			lo[k] = std::min( lo[k], soup->vertices[3 * i + k] );
			hi[k] = std::max( hi[k], soup->vertices[3 * i + k] );
		}
	}
	double identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	pdVec3 shift{ -0.5 * ( lo[0] + hi[0] ), -0.5 * ( lo[1] + hi[1] ), -0.5 * ( lo[2] + hi[2] ) };
	smpTransformSoup( soup, identity, shift );
	return shift;
}

/// Bisects [lo, hi], collidesAt(lo) true and collidesAt(hi) false, iterations times and returns
/// the free end: the boundary of the colliding set along a ray to within (hi - lo) / 2^iterations.
template <typename CollidesAt> double bisectToFree( double lo, double hi, int iterations, CollidesAt collidesAt )
{
	for ( int k = 0; k < iterations; ++k )
	{
		double m = 0.5 * ( lo + hi );
		if ( collidesAt( m ) )
			lo = m;
		else
			hi = m;
	}
	return hi;
}

/// Deterministic random numbers (xorshift64*), the same sequence on every machine.
struct Rng
{
	uint64_t s;
	explicit Rng( uint64_t seed ) : s( seed * 0x9E3779B97F4A7C15ull + 1 ) {}
	uint64_t next()
	{
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		return s * 2685821657736338717ull;
	}
	double uniform() { return (double)( next() >> 11 ) * ( 1.0 / 9007199254740992.0 ); }
	double range( double a, double b ) { return a + ( b - a ) * uniform(); }
	pdQuat rotation()
	{
		// Shoemake's uniform random unit quaternion.
		double u1 = uniform(), u2 = 2.0 * M_PI * uniform(), u3 = 2.0 * M_PI * uniform();
		double a = std::sqrt( 1.0 - u1 ), b = std::sqrt( u1 );
		return pdQuat{ a * std::sin( u2 ), a * std::cos( u2 ), b * std::sin( u3 ), b * std::cos( u3 ) };
	}
	pdVec3 direction()
	{
		double z = range( -1.0, 1.0 ), phi = 2.0 * M_PI * uniform(), r = std::sqrt( std::max( 0.0, 1.0 - z * z ) );
		return pdVec3{ r * std::cos( phi ), r * std::sin( phi ), z };
	}
};

/// Minimal JSON writer: numbers with %.17g (non-finite numbers become null, never NaN).
class Json
{
  public:
	std::string out;
	void raw( const std::string& s ) { out += s; }
	void key( const char* k )
	{
		comma();
		out += "\"";
		out += k;
		out += "\": ";
		m_needComma = false;
	}
	void num( double v )
	{
		char b[64];
		if ( std::isfinite( v ) )
		{
			std::snprintf( b, sizeof( b ), "%.17g", v );
		}
		else
		{
			std::snprintf( b, sizeof( b ), "null" );
		}
		value( b );
	}
	void str( const std::string& v )
	{
		std::string quoted = "\"";
		for ( char c : v )
		{
			if ( c == '"' || c == '\\' )
			{
				quoted += '\\';
			}
			quoted += c;
		}
		quoted += "\"";
		value( quoted );
	}
	void boolean( bool v ) { value( v ? "true" : "false" ); }
	/// "k": v, a number field.
	void field( const char* k, double v )
	{
		key( k );
		num( v );
	}
	/// "k": "v", a string field.
	void field( const char* k, const std::string& v )
	{
		key( k );
		str( v );
	}
	/// "k": true or false (a name of its own, so that a bool is never written as a number).
	void flag( const char* k, bool v )
	{
		key( k );
		boolean( v );
	}
	void beginObject() { open( '{' ); }
	void endObject() { close( '}' ); }
	void beginArray() { open( '[' ); }
	void endArray() { close( ']' ); }
	/// "k": { or "k": [ inside an object.
	void beginObject( const char* k )
	{
		key( k );
		beginObject();
	}
	void beginArray( const char* k )
	{
		key( k );
		beginArray();
	}
	/// "k": [ one object per row, its fields written by fields( row ) ].
	template <typename Rows, typename Fields> void objects( const char* k, const Rows& rows, Fields fields )
	{
		beginArray( k );
		for ( const auto& row : rows )
		{
			beginObject();
			fields( row );
			endObject();
		}
		endArray();
	}

  private:
	void comma()
	{
		if ( m_needComma )
		{
			out += ", ";
		}
	}
	// One value as written: a separator before it when it follows another.
	void value( const std::string& text )
	{
		comma();
		out += text;
		m_needComma = true;
	}
	void open( char bracket )
	{
		comma();
		out += bracket;
		m_needComma = false;
	}
	void close( char bracket )
	{
		out += bracket;
		m_needComma = true;
	}
	bool m_needComma = false;
};

/// Prints one JSON object on a line of stdout, its members written by members( json ).
template <typename Members> void printJsonObject( Members members )
{
	Json j;
	j.beginObject();
	members( j );
	j.endObject();
	std::printf( "%s\n", j.out.c_str() );
}

inline void describeMachine( FILE* f )
{
	FILE* cpu = std::fopen( "/proc/cpuinfo", "r" );
	char line[256];
	std::string model = "unknown cpu";
	if ( cpu != nullptr )
	{
		while ( std::fgets( line, sizeof( line ), cpu ) )
		{
			if ( std::string( line ).rfind( "model name", 0 ) == 0 )
			{
				std::string s( line );
				model = s.substr( s.find( ':' ) + 2 );
				if ( !model.empty() && model.back() == '\n' )
				{
					model.pop_back();
				}
				break;
			}
		}
		std::fclose( cpu );
	}
	std::fprintf( f, "machine: %s, one thread\n", model.c_str() );
}

// Subcommands (each in its own file).
int runProximity( const Options& o );
int runPdRandom( const Options& o );
int runPdFrontier( const Options& o );
int runPdPath( const Options& o );
int runPdBatch( const Options& o );
int runSfog( const Options& o );
int runDebris( const Options& o );
int runAwake( const Options& o );
int runPegProbe( const Options& o );
int runContactReplay( const Options& o );

} // namespace bench
