// SPDX-License-Identifier: MIT
// The Python classes and functions of the module, registered by one function per file.
#pragma once

#include "convert.h"

#include "polydepth/research.h"

#include <cstring>
#include <string>
#include <vector>

namespace polydepth::python
{

/// Result objects: the C results by value (arrays the workspace owned are copied out).
struct PenetrationResult
{
	pdPenetrationResult r;
};
struct LocalPenetration
{
	pdLocalPenetration l;
};
struct DistanceResult
{
	pdDistanceResult r;
};
struct CollideResult
{
	pdCollideResult r; ///< r.pairs is not used: pairs holds them
	std::vector<pdTrianglePair> pairs;
};
struct ContactFeature
{
	pdContactFeature f;
};
struct CcdResult
{
	pdCcdResult r; ///< r.features is not used: features holds them
	std::vector<pdContactFeature> features;
};
/// Per-pair memory for motion coherence (pdPenetrationCache).
struct PenetrationCache
{
	pdPenetrationCache cache{};
};

/// Pickling for a class that holds one plain C struct (a result): the struct's bytes, checked
/// for size when read back. The same build reads what it wrote, as worker processes do.
template <class Holder, class Struct, Struct Holder::*member> void addBytePickling( py::class_<Holder>& c )
{
	c.def( py::pickle( []( const Holder& h )
					   { return py::bytes( reinterpret_cast<const char*>( &( h.*member ) ), sizeof( Struct ) ); },
					   []( const py::bytes& state )
					   {
						   std::string data = state;
						   if ( data.size() != sizeof( Struct ) )
							   throw py::value_error( "bad pickle state: " + std::to_string( data.size() ) +
													  " bytes, expected " + std::to_string( sizeof( Struct ) ) +
													  " (another build of polydepth?)" );
						   Holder h{};
						   std::memcpy( &( h.*member ), data.data(), sizeof( Struct ) );
						   return h;
					   } ) );
}

/// A PD query's keyword options: the def and its research settings (polydepth/research.h), in
/// one struct the option table writes into. Settings not given by keyword come from the preset
/// of the def's quality (finishPenetrationOptions).
struct PenetrationOptions
{
	pdPenetrationDef def;
	pdPenetrationSettings settings;

	/// The def to pass to the library, its settings pointing here.
	pdPenetrationDef resolved() const
	{
		pdPenetrationDef d = def;
		d.settings = &settings;
		return d;
	}
};

/// After the keywords set: the settings not set by keyword from the preset of the quality.
void finishPenetrationOptions( const OptionTable& table, const std::vector<int>& set, PenetrationOptions* options );

/// The keyword options of each query kind, and a probe that runs the query on a small valid
/// pair with a given def (for naming the option the library rejects).
extern const OptionTable kMeshOptions;
extern const OptionTable kPenetrationOptions;
extern const OptionTable kDistanceOptions;
pdStatus probePenetration( const void* def );
pdStatus probeDistance( const void* def );

void bindMeshAndPose( py::module_& m );
void bindQueries( py::module_& m );
void bindBatch( py::module_& m );

} // namespace polydepth::python
