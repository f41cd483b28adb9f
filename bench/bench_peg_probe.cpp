// SPDX-License-Identifier: MIT
// polydepth-bench peg-probe: the contacts of one peg wedged in its bore, as Bullet receives them.
// The probe itself (the meshes, the poses, the collision world) is samples/common/peg_probe.h,
// shared with the shim tests; this prints every manifold it leaves (normal, points, depths)
// beside the interference the geometry implies, the facets' sagitta and the library's global PD.
#include "bench_util.h"

#ifdef POLYDEPTH_HAVE_BULLET
#include "peg_probe.h"
#endif

namespace bench
{

#ifdef POLYDEPTH_HAVE_BULLET
namespace
{

void printContacts( const char* name, const smpPegProbeContacts& c )
{
	std::printf( "  %s: %zu manifolds, deepest %.3f mm; radial normals on both sides: %s; axial normal: %s\n", name,
				 c.manifolds.size(), 1e3 * c.deepest, c.radialPlus && c.radialMinus ? "yes" : "NO",
				 c.axial ? "YES" : "no" );
	for ( const smpPegProbeManifold& m : c.manifolds )
	{
		std::printf( "    normal (%+.3f %+.3f %+.3f), %zu points, depths mm:", (double)m.normal.x(),
					 (double)m.normal.y(), (double)m.normal.z(), m.depths.size() );
		for ( double d : m.depths )
			std::printf( " %.3f", 1e3 * d );
		std::printf( "; at y mm:" );
		for ( const btVector3& p : m.points )
			std::printf( " %.1f", 1e3 * (double)p.y() );
		std::printf( "\n" );
	}
}

void writeContacts( Json& j, const char* key, const smpPegProbeContacts& c )
{
	j.beginObject( key );
	j.field( "deepest", c.deepest );
	j.flag( "radial_both_sides", c.radialPlus && c.radialMinus );
	j.flag( "axial", c.axial );
	j.objects( "manifolds", c.manifolds,
			   [&]( const smpPegProbeManifold& m )
			   {
				   j.beginArray( "normal" );
				   for ( int k = 0; k < 3; ++k )
					   j.num( (double)m.normal[k] );
				   j.endArray();
				   j.field( "points", (double)m.depths.size() );
				   j.beginArray( "depths" );
				   for ( double d : m.depths )
					   j.num( d );
				   j.endArray();
				   j.beginArray( "positions" );
				   for ( const btVector3& p : m.points )
				   {
					   j.beginArray();
					   for ( int k = 0; k < 3; ++k )
						   j.num( (double)p[k] );
					   j.endArray();
				   }
				   j.endArray();
			   } );
	j.endObject();
}

} // namespace
#endif

int runPegProbe( const Options& o )
{
#ifndef POLYDEPTH_HAVE_BULLET
	std::fprintf( stderr, "polydepth-bench peg-probe: built without Bullet (apt-get install libbullet-dev)\n" );
	return 2;
#else
	smpPegProbe probe;
	if ( !smpRunPegProbe( { 3.0, 6.0, 10.0, 20.0 }, &probe ) )
	{
		std::fprintf( stderr,
					  "polydepth-bench peg-probe: cannot build the block or the peg, or register the algorithm\n" );
		return 1;
	}
	const std::vector<smpPegProbeAngle>& angles = probe.angles;
	const double boreSagitta = probe.boreSagitta, pegSagitta = probe.pegSagitta;
	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.field( "bore_radius", probe.boreRadius );
				j.field( "peg_radius", probe.pegRadius );
				j.field( "bore_sagitta", boreSagitta );
				j.field( "peg_sagitta", pegSagitta );
				j.objects( "angles", angles,
						   [&]( const smpPegProbeAngle& p )
						   {
							   j.field( "angle_deg", p.degrees );
							   j.field( "shift", p.shift );
							   j.field( "rim_interference", p.rimInterference );
							   j.field( "lower_interference", p.lowerInterference );
							   j.field( "pd", p.pd );
							   j.beginArray( "pd_direction" );
							   j.num( p.pdDirection.x );
							   j.num( p.pdDirection.y );
							   j.num( p.pdDirection.z );
							   j.endArray();
							   writeContacts( j, "polydepth", p.polydepth );
							   writeContacts( j, "gimpact", p.gimpact );
						   } );
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "peg-probe: peg r %.3f mm (1%% clearance), 48 segments, 3 cm into a bore of r 40 mm (static triangle\n"
				 "mesh), tilted by a about z about its lower end, shifted by 0.015 tan(a); one\n"
				 "performDiscreteCollisionDetection. Normals: the push on the peg. Facet sagitta: bore %.3f mm, peg\n"
				 "%.3f mm (a tessellated wall lies inside its circle by up to that much)\n",
				 1e3 * probe.pegRadius, 1e3 * boreSagitta, 1e3 * pegSagitta );
	for ( const smpPegProbeAngle& p : angles )
	{
		std::printf(
			"\na = %g deg, shift %.3f mm: expected interference at the rim %.3f mm (-x side), at the lower end "
			"%.3f mm (+x side); library PD %.3f mm along (%+.3f %+.3f %+.3f)\n",
			p.degrees, 1e3 * p.shift, 1e3 * p.rimInterference, 1e3 * p.lowerInterference, 1e3 * p.pd, p.pdDirection.x,
			p.pdDirection.y, p.pdDirection.z );
		printContacts( "polydepth", p.polydepth );
		printContacts( "gimpact", p.gimpact );
	}
	return 0;
#endif
}

} // namespace bench
