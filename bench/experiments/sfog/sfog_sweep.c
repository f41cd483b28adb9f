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

#define PD_SFOG_PI 3.14159265358979323846

typedef enum pdSweepItemKind
{
	PD_SWEEP_ARC_A = 0,
	PD_SWEEP_ARC_B = 1,
	PD_SWEEP_REGION_A = 2, ///< vertex region of A
	PD_SWEEP_REGION_B = 3, ///< reflected vertex region of B
	PD_SWEEP_POINT_A = 4,  ///< face node of A
	PD_SWEEP_POINT_B = 5,  ///< reflected face node of B
} pdSweepItemKind;

typedef struct pdSweepPiece
{
	int kind;
	int id;
	int bandLo, bandHi; ///< latitude bands touched (banded variant)
	int slot;           ///< position in its active list
} pdSweepPiece;

typedef pdSfogSweepEvent pdSweepEvent; ///< item: the piece

typedef pdSfogSweepFrame pdSweepFrame;

double pdSfog_SweepLon( const pdSfogSweepFrame* f, pdVec3 d )
{
	double x = pdDot( d, f->e1 ), y = pdDot( d, f->e2 );
	return ( x == 0.0 && y == 0.0 ) ? 0.0 : atan2( y, x );
}

void pdSfog_SweepArcZ( const pdSweepFrame* f, pdVec3 p, pdVec3 q, double* ioLo, double* ioHi )
{
	double zp = pdDot( p, f->e3 ), zq = pdDot( q, f->e3 );
	*ioLo = fmin( *ioLo, fmin( zp, zq ) );
	*ioHi = fmax( *ioHi, fmax( zp, zq ) );
	pdVec3 c = pdCross( p, q );
	double len = pdLength( c );
	if ( len < 1e-15 )
	{
		return;
	}
	c = pdScale( c, 1.0 / len );
	pdVec3 top = pdMulAdd( f->e3, -pdDot( f->e3, c ), c );
	double tl = pdLength( top );
	if ( tl < 1e-15 )
	{
		return;
	}
	top = pdScale( top, 1.0 / tl );
	for ( int s = 0; s < 2; ++s )
	{
		pdVec3 t = s == 0 ? top : pdNeg( top );
		if ( pdDot( pdCross( p, t ), c ) >= 0.0 && pdDot( pdCross( t, q ), c ) >= 0.0 &&
			 pdDot( t, pdAdd( p, q ) ) >= 0.0 )
		{
			double z = pdDot( t, f->e3 );
			*ioLo = fmin( *ioLo, z );
			*ioHi = fmax( *ioHi, z );
		}
	}
}

bool pdSfog_SweepRange( const pdSweepFrame* f, const pdVec3* pts, int n, bool closed, double pad, double* outLo,
						   double* outHi, double* outZLo, double* outZHi )
{
	double lon0 = pdSfog_SweepLon( f, pts[0] );
	double cur = lon0, lo = lon0, hi = lon0;
	double zlo = 2.0, zhi = -2.0;
	int arcs = closed ? n : n - 1;
	if ( n == 1 )
	{
		double z = pdDot( pts[0], f->e3 );
		zlo = zhi = z;
	}
	for ( int i = 0; i < arcs; ++i )
	{
		pdVec3 p = pts[i], q = pts[( i + 1 ) % n];
		pdSfog_SweepArcZ( f, p, q, &zlo, &zhi );
		double d = pdSfog_SweepLon( f, q ) - pdSfog_SweepLon( f, p );
		// The direction of travel decides the branch (a minor arc away from the poles spans
		// less than pi of longitude, eastward when (p x q).e3 > 0).
		double east = pdDot( pdCross( p, q ), f->e3 );
		while ( d > PD_SFOG_PI )
		{
			d -= 2.0 * PD_SFOG_PI;
		}
		while ( d < -PD_SFOG_PI )
		{
			d += 2.0 * PD_SFOG_PI;
		}
		if ( east > 0.0 && d < 0.0 )
		{
			d += 2.0 * PD_SFOG_PI;
		}
		else if ( east < 0.0 && d > 0.0 )
		{
			d -= 2.0 * PD_SFOG_PI;
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
	if ( closed && fabs( cur - lon0 ) > PD_SFOG_PI )
	{
		return false; // winds around the pole
	}
	double padLon = 2.0 * pad / ( cosMin - 2.0 * pad ) + 1e-12;
	*outLo = lo - padLon;
	*outHi = hi + padLon;
	return *outHi - *outLo < 2.0 * PD_SFOG_PI - 1e-9;
}

void pdSfog_SweepFrame( pdSfogSweepFrame* outFrame )
{
	// An axis in no special position, so axis-aligned meshes keep their normals off the poles.
	outFrame->e3 = pdNormalize( pdV3( 0.2113248654, 0.3660254038, 0.9063077870 ) );
	outFrame->e1 = pdNormalize( pdCross( pdV3( 1.0, 0.0, 0.0 ), outFrame->e3 ) );
	outFrame->e1 = pdNormalize( pdCross( outFrame->e3, pdCross( outFrame->e1, outFrame->e3 ) ) );
	outFrame->e2 = pdCross( outFrame->e3, outFrame->e1 );
}

typedef struct pdSweep
{
	pdSweepFrame frame;
	pdSweepPiece* pieces;
	int pieceCount;
	pdSweepEvent* events;
	int eventCount;
	double pad;
	bool banded;
} pdSweep;

int pdSfog_SweepBand( double z )
{
	int b = (int)floor( ( z + 1.0 ) * 0.5 * PD_SFOG_SWEEP_BANDS );
	return b < 0 ? 0 : ( b >= PD_SFOG_SWEEP_BANDS ? PD_SFOG_SWEEP_BANDS - 1 : b );
}

static void pdSweep_AddPiece( pdSweep* s, int kind, int id, double lo, double hi, double zlo, double zhi )
{
	int k = s->pieceCount++;
	s->pieces[k].kind = kind;
	s->pieces[k].id = id;
	s->pieces[k].bandLo = pdSfog_SweepBand( zlo );
	s->pieces[k].bandHi = pdSfog_SweepBand( zhi );
	s->pieces[k].slot = -1;
	if ( kind == PD_SWEEP_POINT_A || kind == PD_SWEEP_POINT_B )
	{
		s->events[s->eventCount++] = ( pdSweepEvent ){ lo, 1, k };
		return;
	}
	s->events[s->eventCount++] = ( pdSweepEvent ){ lo, 0, k };
	s->events[s->eventCount++] = ( pdSweepEvent ){ hi, 2, k };
}

int pdSfog_SweepPieces( bool range, double lo, double hi, double zlo, double zhi, double outLo[2], double outHi[2],
						double outZLo[2], double outZHi[2] )
{
	outZLo[0] = outZLo[1] = zlo;
	outZHi[0] = outZHi[1] = zhi;
	if ( !range )
	{
		outLo[0] = -PD_SFOG_PI - 1.0;
		outHi[0] = PD_SFOG_PI + 1.0;
		outZLo[0] = -1.0;
		outZHi[0] = 1.0;
		return 1;
	}
	double k = floor( ( lo + PD_SFOG_PI ) / ( 2.0 * PD_SFOG_PI ) );
	lo -= 2.0 * PD_SFOG_PI * k;
	hi -= 2.0 * PD_SFOG_PI * k;
	if ( hi <= PD_SFOG_PI )
	{
		outLo[0] = lo;
		outHi[0] = hi;
		return 1;
	}
	outLo[0] = lo;
	outHi[0] = PD_SFOG_PI + 1e-9;
	outLo[1] = -PD_SFOG_PI - 1e-9;
	outHi[1] = hi - 2.0 * PD_SFOG_PI;
	return 2;
}

// Adds an item with its (possibly wrapping) interval, or full range when range is false.
static void pdSweep_AddItem( pdSweep* s, int kind, int id, bool range, double lo, double hi, double zlo, double zhi )
{
	double pLo[2], pHi[2], pZLo[2], pZHi[2];
	int n = pdSfog_SweepPieces( range, lo, hi, zlo, zhi, pLo, pHi, pZLo, pZHi );
	for ( int i = 0; i < n; ++i )
	{
		pdSweep_AddPiece( s, kind, id, pLo[i], pHi[i], pZLo[i], pZHi[i] );
	}
}

int pdSfog_CompareSweepEvents( const void* x, const void* y )
{
	const pdSfogSweepEvent* p = x;
	const pdSfogSweepEvent* q = y;
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

int pdSfog_SweepArcChain( const pdSfog* g, int e, const pdMat33* reflect, pdVec3 outPts[3] )
{
	int kind = g->arcKind[e];
	if ( kind == PD_SFOG_ARC_UNDECIDABLE )
	{
		return 0;
	}
	pdVec3 a0 = g->nodeNormals[g->arcNode[2 * e]];
	pdVec3 a1 = g->nodeNormals[g->arcNode[2 * e + 1]];
	if ( reflect != NULL )
	{
		a0 = pdNeg( pdMulMV( reflect, a0 ) );
		a1 = pdNeg( pdMulMV( reflect, a1 ) );
	}
	int n = 0;
	outPts[n++] = a0;
	if ( kind == PD_SFOG_ARC_MAJOR )
	{
		outPts[n++] = pdNeg( pdNormalize( pdAdd( a0, a1 ) ) );
	}
	if ( kind != PD_SFOG_ARC_POINT )
	{
		outPts[n++] = a1;
	}
	return n;
}

// An arc's chain (A's frame; reflected = B's arc through -R).
static bool pdSweep_ArcItem( const pdSweep* s, const pdSfog* g, int e, const pdMat33* reflect, double* lo, double* hi,
							 double* zlo, double* zhi )
{
	pdVec3 pts[3];
	int n = pdSfog_SweepArcChain( g, e, reflect, pts );
	return n > 0 && pdSfog_SweepRange( &s->frame, pts, n, false, s->pad, lo, hi, zlo, zhi );
}

bool pdSfog_SweepRegionRange( const pdSfogSweepFrame* f, double pad, const pdSfog* g, int v, const pdMat33* reflect,
							  double* lo, double* hi, double* zlo, double* zhi )
{
	if ( g->vertexKind[v] == PD_SFOG_VERTEX_UNDECIDABLE )
	{
		return false;
	}
	// A region holding a pole spans every longitude.
	for ( int sign = 0; sign < 2; ++sign )
	{
		pdVec3 pole = sign == 0 ? f->e3 : pdNeg( f->e3 );
		pdVec3 local = reflect != NULL ? pdNeg( pdMulMTV( reflect, pole ) ) : pole;
		if ( pdSfog_VertexAccepts( g, v, local, 4.0 * pad + 2e-3 ) )
		{
			return false;
		}
	}
	int c0 = g->cornerStart[v], m = g->cornerStart[v + 1] - c0;
	if ( m < 1 || m > PD_SFOG_MAX_VALENCE )
	{
		return false;
	}
	pdVec3 pts[PD_SFOG_MAX_VALENCE];
	for ( int j = 0; j < m; ++j )
	{
		pts[j] = reflect != NULL ? pdNeg( pdMulMV( reflect, g->corners[c0 + j] ) ) : g->corners[c0 + j];
	}
	return pdSfog_SweepRange( f, pts, m, m >= 3, pad, lo, hi, zlo, zhi );
}

static bool pdSweep_RegionItem( const pdSweep* s, const pdSfog* g, int v, const pdMat33* reflect, double* lo,
								double* hi, double* zlo, double* zhi )
{
	return pdSfog_SweepRegionRange( &s->frame, s->pad, g, v, reflect, lo, hi, zlo, zhi );
}

bool pdSfog_HasRing( const pdSfog* g, int v )
{
	return g->ringStart[v + 1] > g->ringStart[v];
}

typedef struct pdSweepLists
{
	int* list[4]; ///< active pieces of ARC_A, ARC_B, REGION_A, REGION_B
	int count[4];
} pdSweepLists;

static pdStatus pdSweep_Run( pdSweep* s, const pdSfog* sA, const pdSfog* sB, const pdMat33* r, pdWorkspace* ws,
							 int* ioCount, pdSfogOverlayStats* stats, int* activeMemory, int activeCapacity )
{
	const double tol = PD_SFOG_ANGLE_TOLERANCE;
	pdSweepLists lists;
	for ( int i = 0; i < 4; ++i )
	{
		lists.list[i] = activeMemory + (size_t)i * (size_t)activeCapacity;
		lists.count[i] = 0;
	}
	qsort( s->events, (size_t)s->eventCount, sizeof( pdSweepEvent ), pdSfog_CompareSweepEvents );
	stats->events = s->eventCount;
	for ( int ev = 0; ev < s->eventCount; ++ev )
	{
		const pdSweepEvent* e = s->events + ev;
		pdSweepPiece* piece = s->pieces + e->item;
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
			if ( kind == PD_SWEEP_ARC_A || kind == PD_SWEEP_ARC_B )
			{
				int other = kind == PD_SWEEP_ARC_A ? PD_SWEEP_ARC_B : PD_SWEEP_ARC_A;
				for ( int j = 0; j < lists.count[other]; ++j )
				{
					const pdSweepPiece* o = s->pieces + lists.list[other][j];
					if ( s->banded && ( o->bandHi < piece->bandLo || o->bandLo > piece->bandHi ) )
					{
						continue;
					}
					int eA = kind == PD_SWEEP_ARC_A ? piece->id : o->id;
					int eB = kind == PD_SWEEP_ARC_A ? o->id : piece->id;
					stats->tests += 1;
					if ( pdSfog_ArcsCross( sA, eA, sB, eB, r, tol ) &&
						 !pdSfog_PushPair( ws, ioCount, PD_CONTACT_EE, eA, eB ) )
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
		if ( kind == PD_SWEEP_POINT_B )
		{
			pdVec3 d = pdNeg( pdMulMV( r, sB->nodeNormals[piece->id] ) );
			for ( int j = 0; j < lists.count[PD_SWEEP_REGION_A]; ++j )
			{
				const pdSweepPiece* o = s->pieces + lists.list[PD_SWEEP_REGION_A][j];
				if ( s->banded && ( o->bandHi < piece->bandLo || o->bandLo > piece->bandHi ) )
				{
					continue;
				}
				stats->tests += 1;
				if ( pdSfog_VertexAccepts( sA, o->id, d, tol ) &&
					 !pdSfog_PushPair( ws, ioCount, PD_CONTACT_VF, o->id, piece->id ) )
				{
					return PD_STATUS_OUT_OF_MEMORY;
				}
			}
		}
		else
		{
			pdVec3 d = pdNeg( pdMulMTV( r, sA->nodeNormals[piece->id] ) );
			for ( int j = 0; j < lists.count[PD_SWEEP_REGION_B]; ++j )
			{
				const pdSweepPiece* o = s->pieces + lists.list[PD_SWEEP_REGION_B][j];
				if ( s->banded && ( o->bandHi < piece->bandLo || o->bandLo > piece->bandHi ) )
				{
					continue;
				}
				stats->tests += 1;
				if ( pdSfog_VertexAccepts( sB, o->id, d, tol ) &&
					 !pdSfog_PushPair( ws, ioCount, PD_CONTACT_FV, piece->id, o->id ) )
				{
					return PD_STATUS_OUT_OF_MEMORY;
				}
			}
		}
	}
	return PD_STATUS_OK;
}

bool pdSfog_Usable( const pdMesh* mesh )
{
	return pdIsValidMesh( mesh ) && mesh->sfog != NULL;
}

bool pdSfog_StartOverlay( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB,
						  const pdMat33* rotationB, const pdWorkspace* ws, int* outCount, const pdSfogPair** outPairs,
						  pdSfogOverlayStats* outStats )
{
	*outCount = 0;
	*outPairs = NULL;
	if ( outStats != NULL )
	{
		*outStats = ( pdSfogOverlayStats ){ 0 };
	}
	return pdIsValidWorkspace( ws ) && pdSfog_Usable( meshA ) && pdSfog_Usable( meshB ) && rotationA != NULL &&
		   rotationB != NULL;
}

int64_t pdSfog_PairsBefore( const pdSfog* sA, const pdSfog* sB )
{
	int64_t va = 0, vb = 0;
	for ( int v = 0; v < sA->vertexCount; ++v )
	{
		va += pdSfog_HasRing( sA, v ) ? 1 : 0;
	}
	for ( int v = 0; v < sB->vertexCount; ++v )
	{
		vb += pdSfog_HasRing( sB, v ) ? 1 : 0;
	}
	return va * sB->nodeCount + (int64_t)sA->nodeCount * vb + (int64_t)sA->edgeCount * sB->edgeCount;
}

pdStatus pdSfog_OverlaySweep( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB,
							  const pdMat33* rotationB, int variant, pdWorkspace* ws, int* outCount,
							  const pdSfogPair** outPairs, pdSfogOverlayStats* outStats )
{
	pdSfogOverlayStats stats = { 0 };
	if ( !pdSfog_StartOverlay( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats ) ||
		 ( variant != PD_SFOG_SWEEP_PLAIN && variant != PD_SFOG_SWEEP_BANDED && variant != PD_SFOG_SWEEP_BLOCKS ) )
	{
		return PD_STATUS_FAILED;
	}
	if ( variant == PD_SFOG_SWEEP_BLOCKS )
	{
		pdStatus status = pdSfog_OverlayBlocks( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats );
		if ( status != PD_STATUS_FAILED )
		{
			return status;
		}
		// The kinetic structure hit its event cap (inconsistent ordering from round-off): the
		// banded sweep gives the same set.
		variant = PD_SFOG_SWEEP_BANDED;
	}
	const pdSfog* sA = meshA->sfog;
	const pdSfog* sB = meshB->sfog;
	pdMat33 r = pdSfog_RelativeRotation( rotationA, rotationB );

	// Scratch: pieces (at most two per region or arc, one per node), events, active lists.
	int items = sA->edgeCount + sB->edgeCount + sA->vertexCount + sB->vertexCount;
	int pieceCap = 2 * items + sA->nodeCount + sB->nodeCount;
	int eventCap = 2 * pieceCap;
	size_t bytes = sizeof( pdSweepPiece ) * (size_t)pieceCap + sizeof( pdSweepEvent ) * (size_t)eventCap +
				   sizeof( int ) * 4u * (size_t)pieceCap + 64;
	if ( !pdBuffer_Reserve( &ws->sfogScratch, bytes, false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	pdSweep s;
	// Events first: they hold doubles, the arrays after them only ints.
	s.events = ws->sfogScratch.data;
	s.pieces = (pdSweepPiece*)( s.events + eventCap );
	int* active = (int*)( s.pieces + pieceCap );
	s.pieceCount = 0;
	s.eventCount = 0;
	s.pad = 2.0 * PD_SFOG_ANGLE_TOLERANCE + 1e-9;
	s.banded = variant == PD_SFOG_SWEEP_BANDED;
	pdSfog_SweepFrame( &s.frame );

	double lo = 0.0, hi = 0.0, zlo = -1.0, zhi = 1.0;
	for ( int e = 0; e < sA->edgeCount; ++e )
	{
		bool range = sA->decidable && pdSweep_ArcItem( &s, sA, e, NULL, &lo, &hi, &zlo, &zhi );
		pdSweep_AddItem( &s, PD_SWEEP_ARC_A, e, range, lo, hi, zlo, zhi );
	}
	for ( int e = 0; e < sB->edgeCount; ++e )
	{
		bool range = sB->decidable && pdSweep_ArcItem( &s, sB, e, &r, &lo, &hi, &zlo, &zhi );
		pdSweep_AddItem( &s, PD_SWEEP_ARC_B, e, range, lo, hi, zlo, zhi );
	}
	for ( int v = 0; v < sA->vertexCount; ++v )
	{
		if ( pdSfog_HasRing( sA, v ) )
		{
			bool range = sA->decidable && pdSweep_RegionItem( &s, sA, v, NULL, &lo, &hi, &zlo, &zhi );
			pdSweep_AddItem( &s, PD_SWEEP_REGION_A, v, range, lo, hi, zlo, zhi );
		}
	}
	for ( int v = 0; v < sB->vertexCount; ++v )
	{
		if ( pdSfog_HasRing( sB, v ) )
		{
			bool range = sB->decidable && pdSweep_RegionItem( &s, sB, v, &r, &lo, &hi, &zlo, &zhi );
			pdSweep_AddItem( &s, PD_SWEEP_REGION_B, v, range, lo, hi, zlo, zhi );
		}
	}
	for ( int n = 0; n < sA->nodeCount; ++n )
	{
		pdVec3 d = sA->nodeNormals[n];
		double z = pdDot( d, s.frame.e3 );
		pdSweep_AddPiece( &s, PD_SWEEP_POINT_A, n, pdSfog_SweepLon( &s.frame, d ), 0.0, z, z );
	}
	for ( int n = 0; n < sB->nodeCount; ++n )
	{
		pdVec3 d = pdNeg( pdMulMV( &r, sB->nodeNormals[n] ) );
		double z = pdDot( d, s.frame.e3 );
		pdSweep_AddPiece( &s, PD_SWEEP_POINT_B, n, pdSfog_SweepLon( &s.frame, d ), 0.0, z, z );
	}

	int count = 0;
	pdStatus status = pdSweep_Run( &s, sA, sB, &r, ws, &count, &stats, active, pieceCap );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	// Wrapped items are split in two pieces, so a pair can be found twice.
	count = pdSfog_SortPairs( ws->sfogPairs.data, count );
	stats.pairsBefore = pdSfog_PairsBefore( sA, sB );
	stats.pairsAfter = count;
	if ( outStats != NULL )
	{
		*outStats = stats;
	}
	*outCount = count;
	*outPairs = ws->sfogPairs.data;
	return PD_STATUS_OK;
}

pdStatus pdSfog_OverlayNaive( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB,
							  const pdMat33* rotationB, pdWorkspace* ws, int* outCount, const pdSfogPair** outPairs,
							  pdSfogOverlayStats* outStats )
{
	pdSfogOverlayStats stats = { 0 };
	if ( !pdSfog_StartOverlay( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats ) )
	{
		return PD_STATUS_FAILED;
	}
	const double tol = PD_SFOG_ANGLE_TOLERANCE;
	const pdSfog* sA = meshA->sfog;
	const pdSfog* sB = meshB->sfog;
	pdMat33 r = pdSfog_RelativeRotation( rotationA, rotationB );
	int count = 0;
	for ( int f = 0; f < sB->nodeCount; ++f )
	{
		pdVec3 d = pdNeg( pdMulMV( &r, sB->nodeNormals[f] ) );
		for ( int v = 0; v < sA->vertexCount; ++v )
		{
			if ( pdSfog_HasRing( sA, v ) )
			{
				stats.tests += 1;
				if ( pdSfog_VertexAccepts( sA, v, d, tol ) && !pdSfog_PushPair( ws, &count, PD_CONTACT_VF, v, f ) )
				{
					return PD_STATUS_OUT_OF_MEMORY;
				}
			}
		}
	}
	for ( int g = 0; g < sA->nodeCount; ++g )
	{
		pdVec3 d = pdNeg( pdMulMTV( &r, sA->nodeNormals[g] ) );
		for ( int v = 0; v < sB->vertexCount; ++v )
		{
			if ( pdSfog_HasRing( sB, v ) )
			{
				stats.tests += 1;
				if ( pdSfog_VertexAccepts( sB, v, d, tol ) && !pdSfog_PushPair( ws, &count, PD_CONTACT_FV, g, v ) )
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
			if ( pdSfog_ArcsCross( sA, eA, sB, eB, &r, tol ) && !pdSfog_PushPair( ws, &count, PD_CONTACT_EE, eA, eB ) )
			{
				return PD_STATUS_OUT_OF_MEMORY;
			}
		}
	}
	count = pdSfog_SortPairs( ws->sfogPairs.data, count );
	stats.pairsBefore = pdSfog_PairsBefore( sA, sB );
	stats.pairsAfter = count;
	if ( outStats != NULL )
	{
		*outStats = stats;
	}
	*outCount = count;
	*outPairs = ws->sfogPairs.data;
	return PD_STATUS_OK;
}

static int pdSfog_ComparePairs( const void* x, const void* y )
{
	const pdSfogPair* p = x;
	const pdSfogPair* q = y;
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

int pdSfog_SortPairs( pdSfogPair* pairs, int count )
{
	if ( count <= 1 )
	{
		return count;
	}
	qsort( pairs, (size_t)count, sizeof( pdSfogPair ), pdSfog_ComparePairs );
	int m = 1;
	for ( int i = 1; i < count; ++i )
	{
		if ( pdSfog_ComparePairs( pairs + i, pairs + m - 1 ) != 0 )
		{
			pairs[m++] = pairs[i];
		}
	}
	return m;
}
