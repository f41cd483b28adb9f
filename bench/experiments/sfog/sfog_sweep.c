// SPDX-License-Identifier: MIT
// Overlay of two orientation graphs of any topology by a sweep on the sphere, and the naive
// all-pairs reference.
//
// A sweep meridian moves east around a pole axis. Every arc, every vertex region and every
// face node becomes an item with its longitude interval (arcs and region boundaries are
// great-circle arcs, whose longitude is monotone, so the interval comes from the endpoints
// and corners; items that reach a pole span every longitude). Arcs are inserted at their
// western end and tested only against the active arcs of the other colour; face nodes are
// tested against the active regions of the other colour when the meridian passes them. The
// exact tests are the applicability predicates of sfog_applicable.c, and the intervals are
// padded by their tolerance, so the sweep reports exactly the naive set.
#include "sfog_experiments.h"

#include "core.h"

#include <stdlib.h>

#define PDI_SFOG_PI 3.14159265358979323846

typedef enum pdiSweepItemKind
{
	PDI_SWEEP_ARC_A = 0,
	PDI_SWEEP_ARC_B = 1,
	PDI_SWEEP_REGION_A = 2, ///< vertex region of A
	PDI_SWEEP_REGION_B = 3, ///< reflected vertex region of B
	PDI_SWEEP_POINT_A = 4,  ///< face node of A
	PDI_SWEEP_POINT_B = 5,  ///< reflected face node of B
} pdiSweepItemKind;

typedef struct pdiSweepPiece
{
	int kind;
	int id;
	int bandLo, bandHi; ///< latitude bands touched (banded variant)
	int slot;           ///< position in its active list
} pdiSweepPiece;

typedef pdiSfogSweepEvent pdiSweepEvent; ///< item: the piece

typedef pdiSfogSweepFrame pdiSweepFrame;

double pdiSfog_SweepLon( const pdiSfogSweepFrame* f, pdVec3 d )
{
	double x = pdiDot( d, f->e1 ), y = pdiDot( d, f->e2 );
	return ( x == 0.0 && y == 0.0 ) ? 0.0 : atan2( y, x );
}

void pdiSfog_SweepArcZ( const pdiSweepFrame* f, pdVec3 p, pdVec3 q, double* ioLo, double* ioHi )
{
	double zp = pdiDot( p, f->e3 ), zq = pdiDot( q, f->e3 );
	*ioLo = fmin( *ioLo, fmin( zp, zq ) );
	*ioHi = fmax( *ioHi, fmax( zp, zq ) );
	pdVec3 c = pdiCross( p, q );
	double len = pdiLength( c );
	if ( len < 1e-15 )
	{
		return;
	}
	c = pdiScale( c, 1.0 / len );
	pdVec3 top = pdiMulAdd( f->e3, -pdiDot( f->e3, c ), c );
	double tl = pdiLength( top );
	if ( tl < 1e-15 )
	{
		return;
	}
	top = pdiScale( top, 1.0 / tl );
	for ( int s = 0; s < 2; ++s )
	{
		pdVec3 t = s == 0 ? top : pdiNeg( top );
		if ( pdiDot( pdiCross( p, t ), c ) >= 0.0 && pdiDot( pdiCross( t, q ), c ) >= 0.0 &&
			 pdiDot( t, pdiAdd( p, q ) ) >= 0.0 )
		{
			double z = pdiDot( t, f->e3 );
			*ioLo = fmin( *ioLo, z );
			*ioHi = fmax( *ioHi, z );
		}
	}
}

bool pdiSfog_SweepRange( const pdiSweepFrame* f, const pdVec3* pts, int n, bool closed, double pad, double* outLo,
						   double* outHi, double* outZLo, double* outZHi )
{
	double lon0 = pdiSfog_SweepLon( f, pts[0] );
	double cur = lon0, lo = lon0, hi = lon0;
	double zlo = 2.0, zhi = -2.0;
	int arcs = closed ? n : n - 1;
	if ( n == 1 )
	{
		double z = pdiDot( pts[0], f->e3 );
		zlo = zhi = z;
	}
	for ( int i = 0; i < arcs; ++i )
	{
		pdVec3 p = pts[i], q = pts[( i + 1 ) % n];
		pdiSfog_SweepArcZ( f, p, q, &zlo, &zhi );
		double d = pdiSfog_SweepLon( f, q ) - pdiSfog_SweepLon( f, p );
		// The direction of travel decides the branch (a minor arc away from the poles spans
		// less than pi of longitude, eastward when (p x q).e3 > 0).
		double east = pdiDot( pdiCross( p, q ), f->e3 );
		while ( d > PDI_SFOG_PI )
		{
			d -= 2.0 * PDI_SFOG_PI;
		}
		while ( d < -PDI_SFOG_PI )
		{
			d += 2.0 * PDI_SFOG_PI;
		}
		if ( east > 0.0 && d < 0.0 )
		{
			d += 2.0 * PDI_SFOG_PI;
		}
		else if ( east < 0.0 && d > 0.0 )
		{
			d -= 2.0 * PDI_SFOG_PI;
		}
		cur += d;
		lo = fmin( lo, cur );
		hi = fmax( hi, cur );
	}
	*outZLo = fmax( -1.0, zlo - pad );
	*outZHi = fmin( 1.0, zhi + pad );
	double zmax = fmax( fabs( zlo ), fabs( zhi ) );
	double cosMin = sqrt( fmax( 0.0, 1.0 - zmax * zmax ) );
	if ( cosMin < 1e-3 || cosMin <= 4.0 * pad )
	{
		return false;
	}
	if ( closed && fabs( cur - lon0 ) > PDI_SFOG_PI )
	{
		return false; // winds around the pole
	}
	double padLon = 2.0 * pad / ( cosMin - 2.0 * pad ) + 1e-12;
	*outLo = lo - padLon;
	*outHi = hi + padLon;
	return *outHi - *outLo < 2.0 * PDI_SFOG_PI - 1e-9;
}

void pdiSfog_SweepFrame( pdiSfogSweepFrame* outFrame )
{
	// An axis in no special position, so axis-aligned meshes keep their normals off the poles.
	outFrame->e3 = pdiNormalize( pdiV3( 0.2113248654, 0.3660254038, 0.9063077870 ) );
	outFrame->e1 = pdiNormalize( pdiCross( pdiV3( 1.0, 0.0, 0.0 ), outFrame->e3 ) );
	outFrame->e1 = pdiNormalize( pdiCross( outFrame->e3, pdiCross( outFrame->e1, outFrame->e3 ) ) );
	outFrame->e2 = pdiCross( outFrame->e3, outFrame->e1 );
}

typedef struct pdiSweep
{
	pdiSweepFrame frame;
	pdiSweepPiece* pieces;
	int pieceCount;
	pdiSweepEvent* events;
	int eventCount;
	double pad;
	bool banded;
} pdiSweep;

int pdiSfog_SweepBand( double z )
{
	int b = (int)floor( ( z + 1.0 ) * 0.5 * PDI_SFOG_SWEEP_BANDS );
	return b < 0 ? 0 : ( b >= PDI_SFOG_SWEEP_BANDS ? PDI_SFOG_SWEEP_BANDS - 1 : b );
}

static void pdiSweep_AddPiece( pdiSweep* s, int kind, int id, double lo, double hi, double zlo, double zhi )
{
	int k = s->pieceCount++;
	s->pieces[k].kind = kind;
	s->pieces[k].id = id;
	s->pieces[k].bandLo = pdiSfog_SweepBand( zlo );
	s->pieces[k].bandHi = pdiSfog_SweepBand( zhi );
	s->pieces[k].slot = -1;
	if ( kind == PDI_SWEEP_POINT_A || kind == PDI_SWEEP_POINT_B )
	{
		s->events[s->eventCount++] = ( pdiSweepEvent ){ lo, 1, k };
		return;
	}
	s->events[s->eventCount++] = ( pdiSweepEvent ){ lo, 0, k };
	s->events[s->eventCount++] = ( pdiSweepEvent ){ hi, 2, k };
}

int pdiSfog_SweepPieces( bool range, double lo, double hi, double zlo, double zhi, double outLo[2], double outHi[2],
						double outZLo[2], double outZHi[2] )
{
	outZLo[0] = outZLo[1] = zlo;
	outZHi[0] = outZHi[1] = zhi;
	if ( !range )
	{
		outLo[0] = -PDI_SFOG_PI - 1.0;
		outHi[0] = PDI_SFOG_PI + 1.0;
		outZLo[0] = -1.0;
		outZHi[0] = 1.0;
		return 1;
	}
	double k = floor( ( lo + PDI_SFOG_PI ) / ( 2.0 * PDI_SFOG_PI ) );
	lo -= 2.0 * PDI_SFOG_PI * k;
	hi -= 2.0 * PDI_SFOG_PI * k;
	if ( hi <= PDI_SFOG_PI )
	{
		outLo[0] = lo;
		outHi[0] = hi;
		return 1;
	}
	outLo[0] = lo;
	outHi[0] = PDI_SFOG_PI + 1e-9;
	outLo[1] = -PDI_SFOG_PI - 1e-9;
	outHi[1] = hi - 2.0 * PDI_SFOG_PI;
	return 2;
}

// Adds an item with its (possibly wrapping) interval, or full range when range is false.
static void pdiSweep_AddItem( pdiSweep* s, int kind, int id, bool range, double lo, double hi, double zlo, double zhi )
{
	double pLo[2], pHi[2], pZLo[2], pZHi[2];
	int n = pdiSfog_SweepPieces( range, lo, hi, zlo, zhi, pLo, pHi, pZLo, pZHi );
	for ( int i = 0; i < n; ++i )
	{
		pdiSweep_AddPiece( s, kind, id, pLo[i], pHi[i], pZLo[i], pZHi[i] );
	}
}

int pdiSfog_CompareSweepEvents( const void* x, const void* y )
{
	const pdiSfogSweepEvent* p = x;
	const pdiSfogSweepEvent* q = y;
	if ( p->lon != q->lon )
	{
		return p->lon < q->lon ? -1 : 1;
	}
	if ( p->order != q->order )
	{
		return p->order < q->order ? -1 : 1;
	}
	return p->item < q->item ? -1 : ( p->item > q->item ? 1 : 0 );
}

int pdiSfog_SweepArcChain( const pdiSfog* g, int e, const pdiMat33* reflect, pdVec3 outPts[3] )
{
	int kind = g->arcKind[e];
	if ( kind == PDI_SFOG_ARC_UNDECIDABLE )
	{
		return 0;
	}
	pdVec3 a0 = g->nodeNormals[g->arcNode[2 * e]];
	pdVec3 a1 = g->nodeNormals[g->arcNode[2 * e + 1]];
	if ( reflect != NULL )
	{
		a0 = pdiNeg( pdiMulMV( reflect, a0 ) );
		a1 = pdiNeg( pdiMulMV( reflect, a1 ) );
	}
	int n = 0;
	outPts[n++] = a0;
	if ( kind == PDI_SFOG_ARC_MAJOR )
	{
		outPts[n++] = pdiNeg( pdiNormalize( pdiAdd( a0, a1 ) ) );
	}
	if ( kind != PDI_SFOG_ARC_POINT )
	{
		outPts[n++] = a1;
	}
	return n;
}

// An arc's chain (A's frame; reflected = B's arc through -R).
static bool pdiSweep_ArcItem( const pdiSweep* s, const pdiSfog* g, int e, const pdiMat33* reflect, double* lo, double* hi,
							 double* zlo, double* zhi )
{
	pdVec3 pts[3];
	int n = pdiSfog_SweepArcChain( g, e, reflect, pts );
	return n > 0 && pdiSfog_SweepRange( &s->frame, pts, n, false, s->pad, lo, hi, zlo, zhi );
}

bool pdiSfog_SweepRegionRange( const pdiSfogSweepFrame* f, double pad, const pdiSfog* g, int v, const pdiMat33* reflect,
							  double* lo, double* hi, double* zlo, double* zhi )
{
	if ( g->vertexKind[v] == PDI_SFOG_VERTEX_UNDECIDABLE )
	{
		return false;
	}
	// A region holding a pole spans every longitude.
	for ( int sign = 0; sign < 2; ++sign )
	{
		pdVec3 pole = sign == 0 ? f->e3 : pdiNeg( f->e3 );
		pdVec3 local = reflect != NULL ? pdiNeg( pdiMulMTV( reflect, pole ) ) : pole;
		if ( pdiSfog_VertexAccepts( g, v, local, 4.0 * pad + 2e-3 ) )
		{
			return false;
		}
	}
	int c0 = g->cornerStart[v], m = g->cornerStart[v + 1] - c0;
	if ( m < 1 || m > PDI_SFOG_MAX_VALENCE )
	{
		return false;
	}
	pdVec3 pts[PDI_SFOG_MAX_VALENCE];
	for ( int j = 0; j < m; ++j )
	{
		pts[j] = reflect != NULL ? pdiNeg( pdiMulMV( reflect, g->corners[c0 + j] ) ) : g->corners[c0 + j];
	}
	return pdiSfog_SweepRange( f, pts, m, m >= 3, pad, lo, hi, zlo, zhi );
}

static bool pdiSweep_RegionItem( const pdiSweep* s, const pdiSfog* g, int v, const pdiMat33* reflect, double* lo,
								double* hi, double* zlo, double* zhi )
{
	return pdiSfog_SweepRegionRange( &s->frame, s->pad, g, v, reflect, lo, hi, zlo, zhi );
}

bool pdiSfog_HasRing( const pdiSfog* g, int v )
{
	return g->ringStart[v + 1] > g->ringStart[v];
}

typedef struct pdiSweepLists
{
	int* list[4]; ///< active pieces of ARC_A, ARC_B, REGION_A, REGION_B
	int count[4];
} pdiSweepLists;

static pdStatus pdiSweep_Run( pdiSweep* s, const pdiSfog* sA, const pdiSfog* sB, const pdiMat33* r, pdWorkspace* ws,
							 int* ioCount, pdiSfogOverlayStats* stats, int* activeMemory, int activeCapacity )
{
	const double tol = PDI_SFOG_ANGLE_TOLERANCE;
	pdiSweepLists lists;
	for ( int i = 0; i < 4; ++i )
	{
		lists.list[i] = activeMemory + (size_t)i * (size_t)activeCapacity;
		lists.count[i] = 0;
	}
	qsort( s->events, (size_t)s->eventCount, sizeof( pdiSweepEvent ), pdiSfog_CompareSweepEvents );
	stats->events = s->eventCount;
	for ( int ev = 0; ev < s->eventCount; ++ev )
	{
		const pdiSweepEvent* e = s->events + ev;
		pdiSweepPiece* piece = s->pieces + e->item;
		int kind = piece->kind;
		if ( e->order == 2 )
		{
			int* list = lists.list[kind];
			int last = list[--lists.count[kind]];
			list[piece->slot] = last;
			s->pieces[last].slot = piece->slot;
			piece->slot = -1;
			continue;
		}
		if ( e->order == 0 )
		{
			if ( kind == PDI_SWEEP_ARC_A || kind == PDI_SWEEP_ARC_B )
			{
				int other = kind == PDI_SWEEP_ARC_A ? PDI_SWEEP_ARC_B : PDI_SWEEP_ARC_A;
				for ( int j = 0; j < lists.count[other]; ++j )
				{
					const pdiSweepPiece* o = s->pieces + lists.list[other][j];
					if ( s->banded && ( o->bandHi < piece->bandLo || o->bandLo > piece->bandHi ) )
					{
						continue;
					}
					int eA = kind == PDI_SWEEP_ARC_A ? piece->id : o->id;
					int eB = kind == PDI_SWEEP_ARC_A ? o->id : piece->id;
					stats->tests += 1;
					if ( pdiSfog_ArcsCross( sA, eA, sB, eB, r, tol ) &&
						 !pdiSfog_PushPair( ws, ioCount, PD_CONTACT_EE, eA, eB ) )
					{
						return PD_STATUS_OUT_OF_MEMORY;
					}
				}
			}
			int* list = lists.list[kind];
			piece->slot = lists.count[kind];
			list[lists.count[kind]++] = e->item;
			continue;
		}
		// A face node: test against the active regions of the other mesh.
		if ( kind == PDI_SWEEP_POINT_B )
		{
			pdVec3 d = pdiNeg( pdiMulMV( r, sB->nodeNormals[piece->id] ) );
			for ( int j = 0; j < lists.count[PDI_SWEEP_REGION_A]; ++j )
			{
				const pdiSweepPiece* o = s->pieces + lists.list[PDI_SWEEP_REGION_A][j];
				if ( s->banded && ( o->bandHi < piece->bandLo || o->bandLo > piece->bandHi ) )
				{
					continue;
				}
				stats->tests += 1;
				if ( pdiSfog_VertexAccepts( sA, o->id, d, tol ) &&
					 !pdiSfog_PushPair( ws, ioCount, PD_CONTACT_VF, o->id, piece->id ) )
				{
					return PD_STATUS_OUT_OF_MEMORY;
				}
			}
		}
		else
		{
			pdVec3 d = pdiNeg( pdiMulMTV( r, sA->nodeNormals[piece->id] ) );
			for ( int j = 0; j < lists.count[PDI_SWEEP_REGION_B]; ++j )
			{
				const pdiSweepPiece* o = s->pieces + lists.list[PDI_SWEEP_REGION_B][j];
				if ( s->banded && ( o->bandHi < piece->bandLo || o->bandLo > piece->bandHi ) )
				{
					continue;
				}
				stats->tests += 1;
				if ( pdiSfog_VertexAccepts( sB, o->id, d, tol ) &&
					 !pdiSfog_PushPair( ws, ioCount, PD_CONTACT_FV, piece->id, o->id ) )
				{
					return PD_STATUS_OUT_OF_MEMORY;
				}
			}
		}
	}
	return PD_STATUS_OK;
}

bool pdiSfog_Usable( const pdMesh* mesh )
{
	return pdiIsValidMesh( mesh ) && mesh->sfog != NULL;
}

bool pdiSfog_StartOverlay( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
						  const pdiMat33* rotationB, const pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
						  pdiSfogOverlayStats* outStats )
{
	*outCount = 0;
	*outPairs = NULL;
	if ( outStats != NULL )
	{
		*outStats = ( pdiSfogOverlayStats ){ 0 };
	}
	return pdiIsValidWorkspace( ws ) && pdiSfog_Usable( meshA ) && pdiSfog_Usable( meshB ) && rotationA != NULL &&
		   rotationB != NULL;
}

int64_t pdiSfog_PairsBefore( const pdiSfog* sA, const pdiSfog* sB )
{
	int64_t va = 0, vb = 0;
	for ( int v = 0; v < sA->vertexCount; ++v )
	{
		va += pdiSfog_HasRing( sA, v ) ? 1 : 0;
	}
	for ( int v = 0; v < sB->vertexCount; ++v )
	{
		vb += pdiSfog_HasRing( sB, v ) ? 1 : 0;
	}
	return va * sB->nodeCount + (int64_t)sA->nodeCount * vb + (int64_t)sA->edgeCount * sB->edgeCount;
}

pdStatus pdiSfog_OverlaySweep( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							  const pdiMat33* rotationB, int variant, pdWorkspace* ws, int* outCount,
							  const pdiSfogPair** outPairs, pdiSfogOverlayStats* outStats )
{
	pdiSfogOverlayStats stats = { 0 };
	if ( !pdiSfog_StartOverlay( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats ) ||
		 ( variant != PDI_SFOG_SWEEP_PLAIN && variant != PDI_SFOG_SWEEP_BANDED && variant != PDI_SFOG_SWEEP_BLOCKS ) )
	{
		return PD_STATUS_FAILED;
	}
	if ( variant == PDI_SFOG_SWEEP_BLOCKS )
	{
		pdStatus status = pdiSfog_OverlayBlocks( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats );
		if ( status != PD_STATUS_FAILED )
		{
			return status;
		}
		// The kinetic structure hit its event cap (inconsistent ordering from round-off): the
		// banded sweep gives the same set.
		variant = PDI_SFOG_SWEEP_BANDED;
	}
	const pdiSfog* sA = meshA->sfog;
	const pdiSfog* sB = meshB->sfog;
	pdiMat33 r = pdiSfog_RelativeRotation( rotationA, rotationB );

	// Scratch: pieces (at most two per region or arc, one per node), events, active lists.
	int items = sA->edgeCount + sB->edgeCount + sA->vertexCount + sB->vertexCount;
	int pieceCap = 2 * items + sA->nodeCount + sB->nodeCount;
	int eventCap = 2 * pieceCap;
	size_t bytes = sizeof( pdiSweepPiece ) * (size_t)pieceCap + sizeof( pdiSweepEvent ) * (size_t)eventCap +
				   sizeof( int ) * 4u * (size_t)pieceCap + 64;
	if ( !pdiBuffer_Reserve( &ws->sfogScratch, bytes, false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	pdiSweep s;
	// Events first: they hold doubles, the arrays after them only ints.
	s.events = ws->sfogScratch.data;
	s.pieces = (pdiSweepPiece*)( s.events + eventCap );
	int* active = (int*)( s.pieces + pieceCap );
	s.pieceCount = 0;
	s.eventCount = 0;
	s.pad = 2.0 * PDI_SFOG_ANGLE_TOLERANCE + 1e-9;
	s.banded = variant == PDI_SFOG_SWEEP_BANDED;
	pdiSfog_SweepFrame( &s.frame );

	double lo = 0.0, hi = 0.0, zlo = -1.0, zhi = 1.0;
	for ( int e = 0; e < sA->edgeCount; ++e )
	{
		bool range = sA->decidable && pdiSweep_ArcItem( &s, sA, e, NULL, &lo, &hi, &zlo, &zhi );
		pdiSweep_AddItem( &s, PDI_SWEEP_ARC_A, e, range, lo, hi, zlo, zhi );
	}
	for ( int e = 0; e < sB->edgeCount; ++e )
	{
		bool range = sB->decidable && pdiSweep_ArcItem( &s, sB, e, &r, &lo, &hi, &zlo, &zhi );
		pdiSweep_AddItem( &s, PDI_SWEEP_ARC_B, e, range, lo, hi, zlo, zhi );
	}
	for ( int v = 0; v < sA->vertexCount; ++v )
	{
		if ( pdiSfog_HasRing( sA, v ) )
		{
			bool range = sA->decidable && pdiSweep_RegionItem( &s, sA, v, NULL, &lo, &hi, &zlo, &zhi );
			pdiSweep_AddItem( &s, PDI_SWEEP_REGION_A, v, range, lo, hi, zlo, zhi );
		}
	}
	for ( int v = 0; v < sB->vertexCount; ++v )
	{
		if ( pdiSfog_HasRing( sB, v ) )
		{
			bool range = sB->decidable && pdiSweep_RegionItem( &s, sB, v, &r, &lo, &hi, &zlo, &zhi );
			pdiSweep_AddItem( &s, PDI_SWEEP_REGION_B, v, range, lo, hi, zlo, zhi );
		}
	}
	for ( int n = 0; n < sA->nodeCount; ++n )
	{
		pdVec3 d = sA->nodeNormals[n];
		double z = pdiDot( d, s.frame.e3 );
		pdiSweep_AddPiece( &s, PDI_SWEEP_POINT_A, n, pdiSfog_SweepLon( &s.frame, d ), 0.0, z, z );
	}
	for ( int n = 0; n < sB->nodeCount; ++n )
	{
		pdVec3 d = pdiNeg( pdiMulMV( &r, sB->nodeNormals[n] ) );
		double z = pdiDot( d, s.frame.e3 );
		pdiSweep_AddPiece( &s, PDI_SWEEP_POINT_B, n, pdiSfog_SweepLon( &s.frame, d ), 0.0, z, z );
	}

	int count = 0;
	pdStatus status = pdiSweep_Run( &s, sA, sB, &r, ws, &count, &stats, active, pieceCap );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	// Wrapped items are split in two pieces, so a pair can be found twice.
	count = pdiSfog_SortPairs( ws->sfogPairs.data, count );
	stats.pairsBefore = pdiSfog_PairsBefore( sA, sB );
	stats.pairsAfter = count;
	if ( outStats != NULL )
	{
		*outStats = stats;
	}
	*outCount = count;
	*outPairs = ws->sfogPairs.data;
	return PD_STATUS_OK;
}

pdStatus pdiSfog_OverlayNaive( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							  const pdiMat33* rotationB, pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
							  pdiSfogOverlayStats* outStats )
{
	pdiSfogOverlayStats stats = { 0 };
	if ( !pdiSfog_StartOverlay( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats ) )
	{
		return PD_STATUS_FAILED;
	}
	const double tol = PDI_SFOG_ANGLE_TOLERANCE;
	const pdiSfog* sA = meshA->sfog;
	const pdiSfog* sB = meshB->sfog;
	pdiMat33 r = pdiSfog_RelativeRotation( rotationA, rotationB );
	int count = 0;
	for ( int f = 0; f < sB->nodeCount; ++f )
	{
		pdVec3 d = pdiNeg( pdiMulMV( &r, sB->nodeNormals[f] ) );
		for ( int v = 0; v < sA->vertexCount; ++v )
		{
			if ( pdiSfog_HasRing( sA, v ) )
			{
				stats.tests += 1;
				if ( pdiSfog_VertexAccepts( sA, v, d, tol ) && !pdiSfog_PushPair( ws, &count, PD_CONTACT_VF, v, f ) )
				{
					return PD_STATUS_OUT_OF_MEMORY;
				}
			}
		}
	}
	for ( int g = 0; g < sA->nodeCount; ++g )
	{
		pdVec3 d = pdiNeg( pdiMulMTV( &r, sA->nodeNormals[g] ) );
		for ( int v = 0; v < sB->vertexCount; ++v )
		{
			if ( pdiSfog_HasRing( sB, v ) )
			{
				stats.tests += 1;
				if ( pdiSfog_VertexAccepts( sB, v, d, tol ) && !pdiSfog_PushPair( ws, &count, PD_CONTACT_FV, g, v ) )
				{
					return PD_STATUS_OUT_OF_MEMORY;
				}
			}
		}
	}
	for ( int eA = 0; eA < sA->edgeCount; ++eA )
	{
		for ( int eB = 0; eB < sB->edgeCount; ++eB )
		{
			stats.tests += 1;
			if ( pdiSfog_ArcsCross( sA, eA, sB, eB, &r, tol ) && !pdiSfog_PushPair( ws, &count, PD_CONTACT_EE, eA, eB ) )
			{
				return PD_STATUS_OUT_OF_MEMORY;
			}
		}
	}
	count = pdiSfog_SortPairs( ws->sfogPairs.data, count );
	stats.pairsBefore = pdiSfog_PairsBefore( sA, sB );
	stats.pairsAfter = count;
	if ( outStats != NULL )
	{
		*outStats = stats;
	}
	*outCount = count;
	*outPairs = ws->sfogPairs.data;
	return PD_STATUS_OK;
}

static int pdiSfog_ComparePairs( const void* x, const void* y )
{
	const pdiSfogPair* p = x;
	const pdiSfogPair* q = y;
	if ( p->kind != q->kind )
	{
		return (int)p->kind < (int)q->kind ? -1 : 1;
	}
	if ( p->a != q->a )
	{
		return p->a < q->a ? -1 : 1;
	}
	if ( p->b != q->b )
	{
		return p->b < q->b ? -1 : 1;
	}
	return 0;
}

int pdiSfog_SortPairs( pdiSfogPair* pairs, int count )
{
	if ( count <= 1 )
	{
		return count;
	}
	qsort( pairs, (size_t)count, sizeof( pdiSfogPair ), pdiSfog_ComparePairs );
	int m = 1;
	for ( int i = 1; i < count; ++i )
	{
		if ( pdiSfog_ComparePairs( pairs + i, pairs + m - 1 ) != 0 )
		{
			pairs[m++] = pairs[i];
		}
	}
	return m;
}
