// SPDX-License-Identifier: MIT
// Red-blue blocks variant of the sphere sweep (orientation-based pruning, overlay of two
// graphs of any topology).
//
// The meridian moves east as in sfog_sweep.c. Along it, the active arcs of A (red) and of B's
// reflection (blue) are grouped into monochromatic blocks: maximal runs of one colour in the
// latitude order. Inside a block the arcs are unordered (same-coloured arcs of a non-convex
// mesh cross freely and we never compute those crossings), except for the block's two limits,
// its topmost and bottommost arc, which are kept right kinetically. The blocks sit in a treap
// ordered along the meridian (searched by the latitude of the limits at the current meridian)
// and in a linked list of neighbours. Events, by longitude:
//   BEGIN    an arc piece starts: it joins the block it falls in (or a neighbour of its colour),
//            or splits a block of the other colour and becomes a block of its own;
//   END      an arc piece ends: it leaves its block; an empty block lets its neighbours (both of
//            the other colour) merge;
//   INTERNAL a member of a block overtakes the block's limit (the only monochromatic crossings
//            computed: those of the limit with the other members);
//   PURPLE   the top of a block crosses the bottom of the block above (the other colour): a
//            bichromatic crossing, reported, and the two arcs swap into blocks of their own.
// A bichromatic crossing can only happen between adjacent limits, so every red-blue crossing in
// the interior of two arcs is a PURPLE event. The predicates accept pairs within a tolerance of
// crossing; such near misses have an endpoint of one arc piece within about twice the tolerance
// of the other arc, and are found by a grid of padded arc boxes queried with the piece
// endpoints. Arcs the sweep cannot order (near a pole, on a meridian great circle, undecidable)
// are tested against every arc of the other colour. Node-in-region inclusions run in the same
// event loop (latitude-banded active region lists, as in the banded sweep). Every candidate goes
// through the exact predicates of sfog_applicable.c, so the output is the naive set.
#include "sfog_experiments.h"

#include "core.h"

#include <stdlib.h>
#include <string.h>

#ifdef PD_BK_DEBUG
#include <stdio.h>
#endif

#define PD_BK_PI 3.14159265358979323846
#define PD_BK_NONE ( -1 )
#define PD_BK_STEEP 1e-6     // |axis . pole| below this: the arc's great circle passes (nearly) a pole
#define PD_BK_TINY 1e-9      // sub-arcs shorter than this have no interior worth sweeping
#define PD_BK_BACKWARD 1e-9  // a crossing this far behind the meridian is round-off: process it now

typedef enum pdBkItemKind
{
	PD_BK_REGION_A = 0,
	PD_BK_REGION_B = 1,
	PD_BK_POINT_A = 2,
	PD_BK_POINT_B = 3,
	PD_BK_PIECE = 4,
} pdBkItemKind;

enum
{
	PD_BK_SLOT_TOP = 0,    ///< a member overtakes the block's top
	PD_BK_SLOT_BOTTOM = 1, ///< a member falls below the block's bottom
	PD_BK_SLOT_PURPLE = 2, ///< the block's top crosses the bottom of the block above
};

/// A sub-arc of one great circle, west to east, inside (-pi, pi] of longitude.
typedef struct pdBkPiece
{
	double lo, hi;     ///< longitude range
	double zLo, zHi;   ///< z (sine of latitude) at the western and eastern end
	double ka, kb;     ///< tan(latitude) on the meridian at longitude l: ka cos l + kb sin l
	int colour;        ///< 0: A, 1: B
	int edge;
	int kinetic;       ///< 1: swept; 0: endpoints only (near-miss grid)
	int block;         ///< block holding it while active, else -1
	int prev, next;    ///< members of the block
} pdBkPiece;

typedef struct pdBkBlock
{
	int colour;
	int head, size, top, bottom;
	int left, right, parent; ///< treap
	uint32_t prio;
	int below, above;        ///< neighbours along the meridian
} pdBkBlock;

typedef struct pdBkSlot
{
	double lon;
	int piece;   ///< the member that overtakes the limit (TOP, BOTTOM)
	int heapPos; ///< -1 when not queued
} pdBkSlot;

typedef struct pdBkItem
{
	int kind;
	int id;
	int bandLo, bandHi;
	int slot;
} pdBkItem;

typedef pdSfogSweepEvent pdBkEvent;

typedef struct pdBkBox
{
	double lo, hi, zlo, zhi;
	int edge;
} pdBkBox;

typedef struct pdBkGrid
{
	int gx, gz;
	int* cellStart; ///< [gx * gz + 1]
	int* entries;   ///< box ids
} pdBkGrid;

typedef struct pdBk
{
	pdSfogSweepFrame frame;
	const pdSfog* sfog[2];
	pdMat33 r;
	pdWorkspace* ws;
	int* pairCount;
	pdSfogOverlayStats* stats;

	pdBkPiece* pieces;
	int pieceCount;
	pdBkBlock* blocks;
	int blockCap, freeBlock, root, head, tail;
	uint32_t rng;
	pdBkSlot* slots;
	int* heap;
	int heapCount;
	int64_t kineticCap;

	double cur, cosCur, sinCur;
	bool oom;
} pdBk;

// ---------------------------------------------------------------------------------------------
// Geometry on the meridian

static void pdBk_SetMeridian( pdBk* s, double lon )
{
	if ( lon != s->cur )
	{
		s->cur = lon;
		s->cosCur = cos( lon );
		s->sinCur = sin( lon );
	}
}

static double pdBk_Key( const pdBk* s, int p )
{
	const pdBkPiece* q = s->pieces + p;
	return q->ka * s->cosCur + q->kb * s->sinCur;
}

static double pdBk_Slope( const pdBk* s, int p )
{
	const pdBkPiece* q = s->pieces + p;
	return -q->ka * s->sinCur + q->kb * s->cosCur;
}

// True when piece i is above piece j just east of the meridian.
static bool pdBk_Above( const pdBk* s, int i, int j )
{
	double ki = pdBk_Key( s, i ), kj = pdBk_Key( s, j );
	if ( fabs( ki - kj ) > 1e-12 * ( 1.0 + fabs( ki ) + fabs( kj ) ) )
	{
		return ki > kj;
	}
	double si = pdBk_Slope( s, i ), sj = pdBk_Slope( s, j );
	if ( si != sj )
	{
		return si > sj;
	}
	return i > j;
}

// Longitude (>= the meridian) where piece i rises above piece j, or INFINITY when it does not
// before either ends. Two great circles cross twice, pi apart, and a piece spans less than pi.
static double pdBk_Rising( const pdBk* s, int i, int j )
{
	const pdBkPiece* pi = s->pieces + i;
	const pdBkPiece* pj = s->pieces + j;
	double a = pi->ka - pj->ka, b = pi->kb - pj->kb;
	if ( a == 0.0 && b == 0.0 )
	{
		return INFINITY;
	}
	// D(l) = a cos l + b sin l = R cos(l - theta) goes from - to + at theta - pi/2.
	double l = atan2( b, a ) - 0.5 * PD_BK_PI;
	double from = s->cur - PD_BK_BACKWARD;
	while ( l < from )
	{
		l += 2.0 * PD_BK_PI;
	}
	while ( l - 2.0 * PD_BK_PI >= from )
	{
		l -= 2.0 * PD_BK_PI;
	}
	double end = fmin( pi->hi, pj->hi );
	if ( l > end )
	{
		return INFINITY;
	}
	return fmax( l, s->cur );
}

// ---------------------------------------------------------------------------------------------
// Kinetic event queue: three slots per block in an indexed binary heap.

static bool pdBk_HeapLess( const pdBk* s, int x, int y )
{
	double lx = s->slots[x].lon, ly = s->slots[y].lon;
	return lx < ly || ( lx == ly && x < y );
}

static void pdBk_HeapSwap( pdBk* s, int i, int j )
{
	int x = s->heap[i], y = s->heap[j];
	s->heap[i] = y;
	s->heap[j] = x;
	s->slots[y].heapPos = i;
	s->slots[x].heapPos = j;
}

static void pdBk_HeapUp( pdBk* s, int i )
{
	while ( i > 0 )
	{
		int p = ( i - 1 ) / 2;
		if ( !pdBk_HeapLess( s, s->heap[i], s->heap[p] ) )
		{
			break;
		}
		pdBk_HeapSwap( s, i, p );
		i = p;
	}
}

static void pdBk_HeapDown( pdBk* s, int i )
{
	for ( ;; )
	{
		int l = 2 * i + 1, r = l + 1, m = i;
		if ( l < s->heapCount && pdBk_HeapLess( s, s->heap[l], s->heap[m] ) )
		{
			m = l;
		}
		if ( r < s->heapCount && pdBk_HeapLess( s, s->heap[r], s->heap[m] ) )
		{
			m = r;
		}
		if ( m == i )
		{
			return;
		}
		pdBk_HeapSwap( s, i, m );
		i = m;
	}
}

static void pdBk_SetSlot( pdBk* s, int slot, double lon, int piece )
{
	pdBkSlot* q = s->slots + slot;
	q->piece = piece;
	if ( lon == INFINITY )
	{
		int i = q->heapPos;
		if ( i >= 0 )
		{
			q->heapPos = -1;
			int last = s->heap[--s->heapCount];
			if ( i < s->heapCount )
			{
				s->heap[i] = last;
				s->slots[last].heapPos = i;
				pdBk_HeapUp( s, i );
				pdBk_HeapDown( s, s->slots[last].heapPos );
			}
		}
		q->lon = INFINITY;
		return;
	}
	q->lon = lon;
	if ( q->heapPos < 0 )
	{
		q->heapPos = s->heapCount;
		s->heap[s->heapCount++] = slot;
		pdBk_HeapUp( s, q->heapPos );
		return;
	}
	pdBk_HeapUp( s, q->heapPos );
	pdBk_HeapDown( s, q->heapPos );
}

// ---------------------------------------------------------------------------------------------
// Blocks: treap in meridian order plus neighbour links.

static void pdBk_Rotate( pdBk* s, int x )
{
	pdBkBlock* B = s->blocks;
	int p = B[x].parent, g = B[p].parent;
	if ( B[p].left == x )
	{
		int c = B[x].right;
		B[p].left = c;
		if ( c >= 0 )
		{
			B[c].parent = p;
		}
		B[x].right = p;
	}
	else
	{
		int c = B[x].left;
		B[p].right = c;
		if ( c >= 0 )
		{
			B[c].parent = p;
		}
		B[x].left = p;
	}
	B[p].parent = x;
	B[x].parent = g;
	if ( g < 0 )
	{
		s->root = x;
	}
	else if ( B[g].left == p )
	{
		B[g].left = x;
	}
	else
	{
		B[g].right = x;
	}
}

// A new empty block of a colour right above block `after` (-1: at the bottom).
static int pdBk_NewBlock( pdBk* s, int after, int colour )
{
	int n = s->freeBlock;
	pdBkBlock* B = s->blocks;
#ifdef PD_BK_DEBUG
	if ( B[n].size != -1 )
	{
		fprintf( stderr, "new block %d is alive\n", n );
		abort();
	}
#endif
	s->freeBlock = B[n].above; // free list threaded through `above`
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	B[n] = ( pdBkBlock ){ colour, PD_BK_NONE, 0, PD_BK_NONE, PD_BK_NONE, PD_BK_NONE, PD_BK_NONE,
						  PD_BK_NONE, s->rng,   PD_BK_NONE, PD_BK_NONE };
	for ( int k = 0; k < 3; ++k )
	{
		s->slots[3 * n + k] = ( pdBkSlot ){ INFINITY, PD_BK_NONE, -1 };
	}
	if ( s->root < 0 )
	{
		s->root = n;
	}
	else
	{
		int c;
		if ( after < 0 )
		{
			c = s->root;
			while ( B[c].left >= 0 )
			{
				c = B[c].left;
			}
			B[c].left = n;
		}
		else if ( B[after].right < 0 )
		{
			c = after;
			B[c].right = n;
		}
		else
		{
			c = B[after].right;
			while ( B[c].left >= 0 )
			{
				c = B[c].left;
			}
			B[c].left = n;
		}
		B[n].parent = c;
		while ( B[n].parent >= 0 && B[B[n].parent].prio < B[n].prio )
		{
			pdBk_Rotate( s, n );
		}
	}
	B[n].below = after;
	B[n].above = after >= 0 ? B[after].above : s->head;
	if ( after >= 0 )
	{
		B[after].above = n;
	}
	else
	{
		s->head = n;
	}
	if ( B[n].above >= 0 )
	{
		B[B[n].above].below = n;
	}
	else
	{
		s->tail = n;
	}
	return n;
}

static void pdBk_DeleteBlock( pdBk* s, int n )
{
	pdBkBlock* B = s->blocks;
	while ( B[n].left >= 0 || B[n].right >= 0 )
	{
		int l = B[n].left, r = B[n].right;
		int c = l < 0 ? r : ( r < 0 ? l : ( B[l].prio > B[r].prio ? l : r ) );
		pdBk_Rotate( s, c );
	}
	int p = B[n].parent;
	if ( p < 0 )
	{
		s->root = PD_BK_NONE;
	}
	else if ( B[p].left == n )
	{
		B[p].left = PD_BK_NONE;
	}
	else
	{
		B[p].right = PD_BK_NONE;
	}
	int below = B[n].below, above = B[n].above;
	if ( below >= 0 )
	{
		B[below].above = above;
	}
	else
	{
		s->head = above;
	}
	if ( above >= 0 )
	{
		B[above].below = below;
	}
	else
	{
		s->tail = below;
	}
	for ( int k = 0; k < 3; ++k )
	{
		pdBk_SetSlot( s, 3 * n + k, INFINITY, PD_BK_NONE );
	}
#ifdef PD_BK_DEBUG
	if ( B[n].size < 0 )
	{
		fprintf( stderr, "double delete %d\n", n );
		abort();
	}
#endif
	B[n].size = -1;
	B[n].above = s->freeBlock;
	s->freeBlock = n;
}

static void pdBk_AddMember( pdBk* s, int k, int p )
{
	pdBkPiece* q = s->pieces + p;
	pdBkBlock* b = s->blocks + k;
	q->block = k;
	q->prev = PD_BK_NONE;
	q->next = b->head;
	if ( b->head >= 0 )
	{
		s->pieces[b->head].prev = p;
	}
	b->head = p;
	b->size += 1;
	if ( b->size == 1 )
	{
		b->top = b->bottom = p;
	}
}

static void pdBk_RemoveMember( pdBk* s, int k, int p )
{
	pdBkPiece* q = s->pieces + p;
	pdBkBlock* b = s->blocks + k;
	if ( q->prev >= 0 )
	{
		s->pieces[q->prev].next = q->next;
	}
	else
	{
		b->head = q->next;
	}
	if ( q->next >= 0 )
	{
		s->pieces[q->next].prev = q->prev;
	}
	q->block = PD_BK_NONE;
	b->size -= 1;
}

static void pdBk_RecomputeTop( pdBk* s, int k )
{
	int best = s->blocks[k].head;
	for ( int m = best >= 0 ? s->pieces[best].next : PD_BK_NONE; m >= 0; m = s->pieces[m].next )
	{
		if ( pdBk_Above( s, m, best ) )
		{
			best = m;
		}
	}
	s->blocks[k].top = best;
}

static void pdBk_RecomputeBottom( pdBk* s, int k )
{
	int best = s->blocks[k].head;
	for ( int m = best >= 0 ? s->pieces[best].next : PD_BK_NONE; m >= 0; m = s->pieces[m].next )
	{
		if ( pdBk_Above( s, best, m ) )
		{
			best = m;
		}
	}
	s->blocks[k].bottom = best;
}

// The monochromatic crossings that matter: the first member to overtake the top ...
static void pdBk_ScheduleTop( pdBk* s, int k )
{
	const pdBkBlock* b = s->blocks + k;
	double best = INFINITY;
	int who = PD_BK_NONE;
	for ( int m = b->head; m >= 0 && b->size > 1; m = s->pieces[m].next )
	{
		if ( m != b->top )
		{
			double l = pdBk_Rising( s, m, b->top );
			if ( l < best )
			{
				best = l;
				who = m;
			}
		}
	}
	pdBk_SetSlot( s, 3 * k + PD_BK_SLOT_TOP, best, who );
}

// ... and the first to fall below the bottom.
static void pdBk_ScheduleBottom( pdBk* s, int k )
{
	const pdBkBlock* b = s->blocks + k;
	double best = INFINITY;
	int who = PD_BK_NONE;
	for ( int m = b->head; m >= 0 && b->size > 1; m = s->pieces[m].next )
	{
		if ( m != b->bottom )
		{
			double l = pdBk_Rising( s, b->bottom, m );
			if ( l < best )
			{
				best = l;
				who = m;
			}
		}
	}
	pdBk_SetSlot( s, 3 * k + PD_BK_SLOT_BOTTOM, best, who );
}

// A new member that is not a limit only needs its own crossings with the limits.
static void pdBk_ScheduleMember( pdBk* s, int k, int m )
{
	const pdBkBlock* b = s->blocks + k;
	if ( m != b->top )
	{
		double l = pdBk_Rising( s, m, b->top );
		if ( l < s->slots[3 * k + PD_BK_SLOT_TOP].lon )
		{
			pdBk_SetSlot( s, 3 * k + PD_BK_SLOT_TOP, l, m );
		}
	}
	if ( m != b->bottom )
	{
		double l = pdBk_Rising( s, b->bottom, m );
		if ( l < s->slots[3 * k + PD_BK_SLOT_BOTTOM].lon )
		{
			pdBk_SetSlot( s, 3 * k + PD_BK_SLOT_BOTTOM, l, m );
		}
	}
}

static void pdBk_SchedulePurple( pdBk* s, int k )
{
	if ( k < 0 )
	{
		return;
	}
	int u = s->blocks[k].above;
	double l = u >= 0 ? pdBk_Rising( s, s->blocks[k].top, s->blocks[u].bottom ) : INFINITY;
	pdBk_SetSlot( s, 3 * k + PD_BK_SLOT_PURPLE, l, PD_BK_NONE );
}

// Everything of block k from scratch (its limits must be right).
static void pdBk_Touch( pdBk* s, int k )
{
	pdBk_ScheduleTop( s, k );
	pdBk_ScheduleBottom( s, k );
	pdBk_SchedulePurple( s, k );
	pdBk_SchedulePurple( s, s->blocks[k].below );
}

// ---------------------------------------------------------------------------------------------
// Events

static void pdBk_Test( pdBk* s, int edgeA, int edgeB )
{
	s->stats->tests += 1;
	if ( pdSfog_ArcsCross( s->sfog[0], edgeA, s->sfog[1], edgeB, &s->r, PD_SFOG_ANGLE_TOLERANCE ) &&
		 !pdSfog_PushPair( s->ws, s->pairCount, PD_CONTACT_EE, edgeA, edgeB ) )
	{
		s->oom = true;
	}
}

static void pdBk_TestPieces( pdBk* s, int p, int q )
{
	const pdBkPiece* a = s->pieces + p;
	const pdBkPiece* b = s->pieces + q;
	if ( a->colour == 0 )
	{
		pdBk_Test( s, a->edge, b->edge );
	}
	else
	{
		pdBk_Test( s, b->edge, a->edge );
	}
}

// Two blocks of one colour that became neighbours become one.
static int pdBk_Merge( pdBk* s, int lower, int upper )
{
	pdBkBlock* B = s->blocks;
	int keep = B[lower].size >= B[upper].size ? lower : upper;
	int gone = keep == lower ? upper : lower;
	int top = B[upper].top, bottom = B[lower].bottom;
	for ( int m = B[gone].head; m >= 0; )
	{
		int next = s->pieces[m].next;
		pdBk_AddMember( s, keep, m );
		m = next;
	}
	B[gone].head = PD_BK_NONE;
	B[gone].size = 0;
	pdBk_DeleteBlock( s, gone );
	B[keep].top = top;
	B[keep].bottom = bottom;
	return keep;
}

static void pdBk_Begin( pdBk* s, int p )
{
	int colour = s->pieces[p].colour;
	pdBkBlock* B = s->blocks;
	if ( s->root < 0 )
	{
		int k = pdBk_NewBlock( s, PD_BK_NONE, colour );
		pdBk_AddMember( s, k, p );
		pdBk_Touch( s, k );
		return;
	}
	// Locate p along the meridian: inside a block, or in the gap below `succ`.
	int node = s->root, succ = PD_BK_NONE, inside = PD_BK_NONE;
	while ( node >= 0 )
	{
		if ( pdBk_Above( s, p, B[node].top ) )
		{
			node = B[node].right;
		}
		else if ( pdBk_Above( s, B[node].bottom, p ) )
		{
			succ = node;
			node = B[node].left;
		}
		else
		{
			inside = node;
			break;
		}
	}
	if ( inside >= 0 && B[inside].colour == colour )
	{
		pdBk_AddMember( s, inside, p );
		pdBk_ScheduleMember( s, inside, p );
		return;
	}
	if ( inside >= 0 )
	{
		int k = inside, aboveCount = 0;
		for ( int m = B[k].head; m >= 0; m = s->pieces[m].next )
		{
			aboveCount += pdBk_Above( s, m, p ) ? 1 : 0;
		}
		if ( aboveCount == 0 )
		{
			succ = B[k].above; // round-off: p is above every member after all
		}
		else if ( aboveCount == B[k].size )
		{
			succ = k;
		}
		else
		{
			// Split k around p: k keeps the members below p, h gets those above.
			int mid = pdBk_NewBlock( s, k, colour );
			int h = pdBk_NewBlock( s, mid, B[k].colour );
			int oldTop = B[k].top;
			for ( int m = B[k].head; m >= 0; )
			{
				int next = s->pieces[m].next;
				if ( pdBk_Above( s, m, p ) )
				{
					pdBk_RemoveMember( s, k, m );
					pdBk_AddMember( s, h, m );
				}
				m = next;
			}
			pdBk_AddMember( s, mid, p );
			B[h].top = oldTop;
			pdBk_RecomputeTop( s, k );
			pdBk_RecomputeBottom( s, h );
			pdBk_Touch( s, k );
			pdBk_Touch( s, mid );
			pdBk_Touch( s, h );
			return;
		}
	}
	int upper = succ;
	int lower = upper >= 0 ? B[upper].below : s->tail;
	if ( upper >= 0 && B[upper].colour == colour )
	{
		pdBk_AddMember( s, upper, p );
		B[upper].bottom = p;
		pdBk_ScheduleBottom( s, upper );
		pdBk_ScheduleMember( s, upper, p );
		pdBk_SchedulePurple( s, lower );
		return;
	}
	if ( lower >= 0 && B[lower].colour == colour )
	{
		pdBk_AddMember( s, lower, p );
		B[lower].top = p;
		pdBk_ScheduleTop( s, lower );
		pdBk_ScheduleMember( s, lower, p );
		pdBk_SchedulePurple( s, lower );
		return;
	}
	int k = pdBk_NewBlock( s, lower, colour );
	pdBk_AddMember( s, k, p );
	pdBk_Touch( s, k );
}

static void pdBk_End( pdBk* s, int p )
{
	int k = s->pieces[p].block;
	if ( k < 0 )
	{
		return;
	}
	pdBkBlock* B = s->blocks;
	pdBk_RemoveMember( s, k, p );
	if ( B[k].size == 0 )
	{
		int lower = B[k].below, upper = B[k].above;
		pdBk_DeleteBlock( s, k );
		if ( lower >= 0 && upper >= 0 )
		{
			int m = pdBk_Merge( s, lower, upper );
			pdBk_Touch( s, m );
		}
		else
		{
			pdBk_SchedulePurple( s, lower );
		}
		return;
	}
	if ( p == B[k].top )
	{
		pdBk_RecomputeTop( s, k );
		pdBk_ScheduleTop( s, k );
		pdBk_SchedulePurple( s, k );
	}
	else if ( s->slots[3 * k + PD_BK_SLOT_TOP].piece == p )
	{
		pdBk_ScheduleTop( s, k );
	}
	if ( p == B[k].bottom )
	{
		pdBk_RecomputeBottom( s, k );
		pdBk_ScheduleBottom( s, k );
		pdBk_SchedulePurple( s, B[k].below );
	}
	else if ( s->slots[3 * k + PD_BK_SLOT_BOTTOM].piece == p )
	{
		pdBk_ScheduleBottom( s, k );
	}
}

static void pdBk_Purple( pdBk* s, int k )
{
	pdBkBlock* B = s->blocks;
	int u = B[k].above;
	int t = B[k].top, b = B[u].bottom;
	s->stats->purpleEvents += 1;
	pdBk_TestPieces( s, t, b );
	// Order before: ... k (with t on top), u (with b at the bottom) ...; after: k \ t, b, t, u \ b.
	pdBk_RemoveMember( s, k, t );
	pdBk_RemoveMember( s, u, b );
	int touched[6];
	int n = 0;
	int low;
	if ( B[k].size == 0 )
	{
		int below = B[k].below;
		pdBk_DeleteBlock( s, k );
		if ( below >= 0 )
		{
			pdBk_AddMember( s, below, b );
			B[below].top = b;
			low = below;
		}
		else
		{
			low = pdBk_NewBlock( s, PD_BK_NONE, B[u].colour );
			pdBk_AddMember( s, low, b );
		}
	}
	else
	{
		pdBk_RecomputeTop( s, k );
		if ( B[k].bottom == t )
		{
			pdBk_RecomputeBottom( s, k );
		}
		touched[n++] = k;
		low = pdBk_NewBlock( s, k, B[u].colour );
		pdBk_AddMember( s, low, b );
	}
	touched[n++] = low;
	int high;
	if ( B[u].size == 0 )
	{
		int above = B[u].above;
		pdBk_DeleteBlock( s, u );
		if ( above >= 0 )
		{
			pdBk_AddMember( s, above, t );
			B[above].bottom = t;
			high = above;
		}
		else
		{
			high = pdBk_NewBlock( s, low, s->pieces[t].colour );
			pdBk_AddMember( s, high, t );
		}
	}
	else
	{
		pdBk_RecomputeBottom( s, u );
		if ( B[u].top == b )
		{
			pdBk_RecomputeTop( s, u );
		}
		high = pdBk_NewBlock( s, low, s->pieces[t].colour );
		pdBk_AddMember( s, high, t );
		touched[n++] = u;
	}
	touched[n++] = high;
	for ( int i = 0; i < n; ++i )
	{
		pdBk_Touch( s, touched[i] );
	}
#ifdef PD_BK_DEBUG
	for ( int i = 0; i < n; ++i )
	{
		int q = touched[i];
		if ( s->pieces[B[q].top].block != q || s->pieces[B[q].bottom].block != q )
		{
			fprintf( stderr, "purple k %d u %d t %d b %d: touched %d (i %d of %d) size %d top %d (in %d) bottom %d\n", k, u,
					 t, b, q, i, n, B[q].size, B[q].top, s->pieces[B[q].top].block, B[q].bottom );
		}
	}
#endif
}

static void pdBk_Kinetic( pdBk* s )
{
	int slot = s->heap[0];
	int k = slot / 3, kind = slot % 3;
	double lon = s->slots[slot].lon;
	int m = s->slots[slot].piece;
	pdBk_SetSlot( s, slot, INFINITY, PD_BK_NONE );
	pdBk_SetMeridian( s, lon );
	s->stats->kineticEvents += 1;
	pdBkBlock* B = s->blocks;
#ifdef PD_BK_DEBUG
	if ( kind != PD_BK_SLOT_PURPLE && ( m < 0 || s->pieces[m].block != k ) )
	{
		fprintf( stderr, "kinetic kind %d block %d piece %d (in %d) lon %.17g\n", kind, k, m,
				 m >= 0 ? s->pieces[m].block : -9, lon );
		abort();
	}
#endif
	if ( kind == PD_BK_SLOT_TOP )
	{
		B[k].top = m;
		pdBk_ScheduleTop( s, k );
		pdBk_SchedulePurple( s, k );
		if ( m == B[k].bottom )
		{
			// The old top and bottom swapped (a two-member block, or a tie): the bottom event
			// of the same crossing may not have come yet.
			pdBk_RecomputeBottom( s, k );
			pdBk_ScheduleBottom( s, k );
			pdBk_SchedulePurple( s, B[k].below );
		}
	}
	else if ( kind == PD_BK_SLOT_BOTTOM )
	{
		B[k].bottom = m;
		pdBk_ScheduleBottom( s, k );
		pdBk_SchedulePurple( s, B[k].below );
		if ( m == B[k].top )
		{
			pdBk_RecomputeTop( s, k );
			pdBk_ScheduleTop( s, k );
			pdBk_SchedulePurple( s, k );
		}
	}
	else
	{
		pdBk_Purple( s, k );
	}
}


#ifdef PD_BK_DEBUG
// Debug builds of the harness only: every structural invariant after every event.
static void pdBk_Check( pdBk* s, const char* where )
{
	int n = 0, prev = PD_BK_NONE;
	for ( int k = s->head; k >= 0; k = s->blocks[k].above )
	{
		const pdBkBlock* b = s->blocks + k;
		int size = 0, hasTop = 0, hasBottom = 0;
		for ( int m = b->head; m >= 0; m = s->pieces[m].next )
		{
			if ( s->pieces[m].block != k || ++size > s->pieceCount )
			{
				fprintf( stderr, "%s: block %d member %d bad (size %d)\n", where, k, m, size );
				abort();
			}
			hasTop |= m == b->top;
			hasBottom |= m == b->bottom;
		}
		if ( size != b->size || size == 0 || !hasTop || !hasBottom || b->below != prev ||
			 ( prev >= 0 && s->blocks[prev].colour == b->colour ) )
		{
			fprintf( stderr, "%s: block %d size %d/%d top %d bottom %d below %d/%d\n", where, k, size, b->size, hasTop,
					 hasBottom, b->below, prev );
			abort();
		}
		prev = k;
		if ( ++n > s->blockCap )
		{
			fprintf( stderr, "%s: block list cycle\n", where );
			abort();
		}
	}
	if ( prev != s->tail )
	{
		fprintf( stderr, "%s: tail\n", where );
		abort();
	}
}
#else
#define pdBk_Check( s, where ) ( (void)0 )
#endif

// ---------------------------------------------------------------------------------------------
// Setup

typedef struct pdBkBuild
{
	pdBkItem* items;
	int itemCount;
	pdBkEvent* events;
	int eventCount;
} pdBkBuild;

static void pdBk_AddRegionPiece( pdBkBuild* b, int kind, int id, double lo, double hi, double zlo, double zhi )
{
	int k = b->itemCount++;
	b->items[k] = ( pdBkItem ){ kind, id, pdSfog_SweepBand( zlo ), pdSfog_SweepBand( zhi ), -1 };
	if ( kind == PD_BK_POINT_A || kind == PD_BK_POINT_B )
	{
		b->events[b->eventCount++] = ( pdBkEvent ){ lo, 1, k };
		return;
	}
	b->events[b->eventCount++] = ( pdBkEvent ){ lo, 0, k };
	b->events[b->eventCount++] = ( pdBkEvent ){ hi, 2, k };
}

static void pdBk_AddRegion( pdBkBuild* b, int kind, int id, bool range, double lo, double hi, double zlo, double zhi )
{
	double pLo[2], pHi[2], pZLo[2], pZHi[2];
	int n = pdSfog_SweepPieces( range, lo, hi, zlo, zhi, pLo, pHi, pZLo, pZHi );
	for ( int i = 0; i < n; ++i )
	{
		pdBk_AddRegionPiece( b, kind, id, pLo[i], pHi[i], pZLo[i], pZHi[i] );
	}
}

// Pieces of one arc (sub-arcs of one great circle inside (-pi, pi]); false when the sweep
// cannot order it (the arc is then tested against every arc of the other colour).
static bool pdBk_ArcPieces( const pdSfogSweepFrame* f, const pdVec3* pts, int n, int colour, int edge,
							pdBkPiece* out, int* outCount )
{
	*outCount = 0;
	if ( n == 1 )
	{
		double lon = pdSfog_SweepLon( f, pts[0] ), z = pdDot( pts[0], f->e3 );
		out[( *outCount )++] = ( pdBkPiece ){ lon, lon, z, z, 0.0, 0.0, colour, edge, 0, PD_BK_NONE, PD_BK_NONE, PD_BK_NONE };
		return true;
	}
	for ( int i = 0; i + 1 < n; ++i )
	{
		pdVec3 p = pts[i], q = pts[i + 1];
		pdVec3 c = pdCross( p, q );
		double len = pdLength( c );
		double lp = pdSfog_SweepLon( f, p ), lq = pdSfog_SweepLon( f, q );
		double zp = pdDot( p, f->e3 ), zq = pdDot( q, f->e3 );
		if ( len < PD_BK_TINY )
		{
			out[( *outCount )++] =
				( pdBkPiece ){ lp, lq, zp, zq, 0.0, 0.0, colour, edge, 0, PD_BK_NONE, PD_BK_NONE, PD_BK_NONE };
			continue;
		}
		c = pdScale( c, 1.0 / len );
		double c3 = pdDot( c, f->e3 );
		if ( fabs( c3 ) < PD_BK_STEEP )
		{
			return false;
		}
		double ka = -pdDot( c, f->e1 ) / c3, kb = -pdDot( c, f->e2 ) / c3;
		bool east = pdDot( c, f->e3 ) > 0.0; // p -> q runs east
		double lw = east ? lp : lq, le = east ? lq : lp;
		double zw = east ? zp : zq, ze = east ? zq : zp;
		double d = le - lw;
		while ( d < 0.0 )
		{
			d += 2.0 * PD_BK_PI;
		}
		while ( d >= 2.0 * PD_BK_PI )
		{
			d -= 2.0 * PD_BK_PI;
		}
		if ( d >= PD_BK_PI )
		{
			return false; // a minor arc away from the poles spans less than pi
		}
		if ( lw + d <= PD_BK_PI )
		{
			out[( *outCount )++] = ( pdBkPiece ){ lw, lw + d, zw, ze, ka, kb, colour, edge, 1, PD_BK_NONE, PD_BK_NONE, PD_BK_NONE };
			continue;
		}
		// Across the seam at longitude pi.
		double k = -ka; // tan(latitude) at pi: ka cos(pi) + kb sin(pi)
		double zs = k / sqrt( 1.0 + k * k );
		out[( *outCount )++] = ( pdBkPiece ){ lw, PD_BK_PI, zw, zs, ka, kb, colour, edge, 1, PD_BK_NONE, PD_BK_NONE, PD_BK_NONE };
		out[( *outCount )++] = ( pdBkPiece ){ -PD_BK_PI, lw + d - 2.0 * PD_BK_PI, zs, ze, ka, kb, colour, edge, 1,
											  PD_BK_NONE, PD_BK_NONE, PD_BK_NONE };
	}
	return true;
}

static int pdBk_Cell( double v, double lo, double hi, int n )
{
	int i = (int)floor( ( v - lo ) / ( hi - lo ) * n );
	return i < 0 ? 0 : ( i >= n ? n - 1 : i );
}

// ---------------------------------------------------------------------------------------------

pdStatus pdSfog_OverlayBlocks( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB,
							   const pdMat33* rotationB, pdWorkspace* ws, int* outCount, const pdSfogPair** outPairs,
							   pdSfogOverlayStats* outStats )
{
	pdSfogOverlayStats stats = { 0 };
	if ( !pdSfog_StartOverlay( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats ) )
	{
		return PD_STATUS_FAILED;
	}
	const double tol = PD_SFOG_ANGLE_TOLERANCE;
	const double regionPad = 2.0 * tol + 1e-9;
	// Near misses accepted by the arc predicate lie within about 2 tol of an endpoint.
	const double nearPad = 4.0 * tol + 1e-9;
	const pdSfog* g[2] = { meshA->sfog, meshB->sfog };
	pdMat33 r = pdSfog_RelativeRotation( rotationA, rotationB );
	pdMat33 reflect[2];
	reflect[1] = r;
	int E[2] = { g[0]->edgeCount, g[1]->edgeCount };
	int V[2] = { g[0]->vertexCount, g[1]->vertexCount };
	int N[2] = { g[0]->nodeCount, g[1]->nodeCount };

	// Scratch, phase one (sizes known up front).
	int pieceCap = 4 * ( E[0] + E[1] ) + 1;
	int itemCap = 2 * ( V[0] + V[1] ) + N[0] + N[1] + pieceCap;
	int eventCap = 4 * ( V[0] + V[1] ) + N[0] + N[1] + 2 * pieceCap;
	int blockCap = pieceCap + 2;
	int boxCap = 2 * ( E[0] + E[1] ) + 1;
	int regionCap = 2 * ( V[0] + V[1] ) + 1;
	int gridDim[2][2];
	size_t cells = 0;
	size_t off = 0;
#define PD_BK_TAKE( name, type, count )                                                                                \
	size_t name = off;                                                                                                 \
	off += ( ( sizeof( type ) * (size_t)( count ) ) + 7u ) & ~(size_t)7u
	PD_BK_TAKE( offEvents, pdBkEvent, eventCap );
	PD_BK_TAKE( offPieces, pdBkPiece, pieceCap );
	PD_BK_TAKE( offBoxes, pdBkBox, boxCap );
	PD_BK_TAKE( offSlots, pdBkSlot, 3 * blockCap );
	PD_BK_TAKE( offBlocks, pdBkBlock, blockCap );
	PD_BK_TAKE( offItems, pdBkItem, itemCap );
	PD_BK_TAKE( offHeap, int, 3 * blockCap );
	PD_BK_TAKE( offActive, int, 2 * regionCap );
	PD_BK_TAKE( offBrute, uint8_t, E[0] + E[1] + 1 );
	size_t phaseOne = off;
	if ( !pdBuffer_Reserve( &ws->sfogScratch, phaseOne + 64, false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	char* base = ws->sfogScratch.data;
	pdBk s;
	memset( &s, 0, sizeof( s ) );
	pdSfog_SweepFrame( &s.frame );
	s.sfog[0] = g[0];
	s.sfog[1] = g[1];
	s.r = r;
	s.ws = ws;
	int count = 0;
	s.pairCount = &count;
	s.stats = &stats;
	s.cur = NAN;

	// Arc pieces and near-miss boxes, per colour.
	pdBkPiece* pieces = (pdBkPiece*)( base + offPieces );
	pdBkBox* boxes = (pdBkBox*)( base + offBoxes );
	uint8_t* brute = (uint8_t*)( base + offBrute );
	int pieceCount = 0, boxCount[2] = { 0, 0 };
	int boxFirst[2] = { 0, 0 };
	int totalBoxes = 0;
	for ( int c = 0; c < 2; ++c )
	{
		boxFirst[c] = totalBoxes;
		for ( int e = 0; e < E[c]; ++e )
		{
			pdVec3 pts[3];
			int n = g[c]->decidable ? pdSfog_SweepArcChain( g[c], e, c == 1 ? &reflect[1] : NULL, pts ) : 0;
			double lo = 0.0, hi = 0.0, zlo = 0.0, zhi = 0.0;
			int got = 0;
			bool ok = n > 0 && pdSfog_SweepRange( &s.frame, pts, n, false, nearPad, &lo, &hi, &zlo, &zhi ) &&
					  pdBk_ArcPieces( &s.frame, pts, n, c, e, pieces + pieceCount, &got );
			brute[c * E[0] + e] = ok ? 0 : 1;
			if ( !ok )
			{
				continue;
			}
			pieceCount += got;
			double k = floor( ( lo + PD_BK_PI ) / ( 2.0 * PD_BK_PI ) );
			lo -= 2.0 * PD_BK_PI * k;
			hi -= 2.0 * PD_BK_PI * k;
			if ( hi <= PD_BK_PI )
			{
				boxes[totalBoxes++] = ( pdBkBox ){ lo, hi, zlo, zhi, e };
			}
			else
			{
				boxes[totalBoxes++] = ( pdBkBox ){ lo, PD_BK_PI + 1e-9, zlo, zhi, e };
				boxes[totalBoxes++] = ( pdBkBox ){ -PD_BK_PI - 1e-9, hi - 2.0 * PD_BK_PI, zlo, zhi, e };
			}
		}
		boxCount[c] = totalBoxes - boxFirst[c];
	}

	// Phase two: the grids (cell counts first, then entries).
	size_t entryCount[2] = { 0, 0 };
	for ( int c = 0; c < 2; ++c )
	{
		int gz = (int)sqrt( 0.5 * (double)boxCount[c] );
		gz = gz < 1 ? 1 : ( gz > 1024 ? 1024 : gz );
		gridDim[c][0] = 2 * gz;
		gridDim[c][1] = gz;
		cells += (size_t)( 2 * gz * gz + 1 );
		for ( int i = 0; i < boxCount[c]; ++i )
		{
			const pdBkBox* b = boxes + boxFirst[c] + i;
			int x0 = pdBk_Cell( b->lo, -PD_BK_PI, PD_BK_PI, 2 * gz ), x1 = pdBk_Cell( b->hi, -PD_BK_PI, PD_BK_PI, 2 * gz );
			int z0 = pdBk_Cell( b->zlo, -1.0, 1.0, gz ), z1 = pdBk_Cell( b->zhi, -1.0, 1.0, gz );
			entryCount[c] += (size_t)( x1 - x0 + 1 ) * (size_t)( z1 - z0 + 1 );
		}
	}
	size_t offCells = off;
	off += ( sizeof( int ) * cells + 7u ) & ~(size_t)7u;
	size_t offEntries = off;
	off += ( sizeof( int ) * ( entryCount[0] + entryCount[1] + 1 ) + 7u ) & ~(size_t)7u;
	if ( !pdBuffer_Reserve( &ws->sfogScratch, off + 64, true ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	base = ws->sfogScratch.data;
	pieces = (pdBkPiece*)( base + offPieces );
	boxes = (pdBkBox*)( base + offBoxes );
	brute = (uint8_t*)( base + offBrute );
	pdBkGrid grid[2];
	{
		int* cellMem = (int*)( base + offCells );
		int* entryMem = (int*)( base + offEntries );
		for ( int c = 0; c < 2; ++c )
		{
			int gx = gridDim[c][0], gz = gridDim[c][1];
			grid[c].gx = gx;
			grid[c].gz = gz;
			grid[c].cellStart = cellMem;
			grid[c].entries = entryMem;
			memset( cellMem, 0, sizeof( int ) * (size_t)( gx * gz + 1 ) );
			for ( int pass = 0; pass < 2; ++pass )
			{
				for ( int i = 0; i < boxCount[c]; ++i )
				{
					const pdBkBox* b = boxes + boxFirst[c] + i;
					int x0 = pdBk_Cell( b->lo, -PD_BK_PI, PD_BK_PI, gx ), x1 = pdBk_Cell( b->hi, -PD_BK_PI, PD_BK_PI, gx );
					int z0 = pdBk_Cell( b->zlo, -1.0, 1.0, gz ), z1 = pdBk_Cell( b->zhi, -1.0, 1.0, gz );
					for ( int z = z0; z <= z1; ++z )
					{
						for ( int x = x0; x <= x1; ++x )
						{
							int cell = z * gx + x;
							if ( pass == 0 )
							{
								cellMem[cell + 1] += 1;
							}
							else
							{
								entryMem[cellMem[cell]++] = boxFirst[c] + i;
							}
						}
					}
				}
				if ( pass == 0 )
				{
					for ( int cell = 0; cell < gx * gz; ++cell )
					{
						cellMem[cell + 1] += cellMem[cell];
					}
				}
				else
				{
					for ( int cell = gx * gz; cell > 0; --cell )
					{
						cellMem[cell] = cellMem[cell - 1];
					}
					cellMem[0] = 0;
				}
			}
			entryMem += entryCount[c];
			cellMem += gx * gz + 1;
		}
	}

	// Arcs the sweep cannot order: against every arc of the other colour.
	for ( int eA = 0; eA < E[0] && !s.oom; ++eA )
	{
		if ( brute[eA] )
		{
			for ( int eB = 0; eB < E[1]; ++eB )
			{
				pdBk_Test( &s, eA, eB );
			}
		}
	}
	for ( int eB = 0; eB < E[1] && !s.oom; ++eB )
	{
		if ( brute[E[0] + eB] )
		{
			for ( int eA = 0; eA < E[0]; ++eA )
			{
				pdBk_Test( &s, eA, eB );
			}
		}
	}
	// Near misses: every piece endpoint against the other colour's padded arc boxes.
	for ( int i = 0; i < pieceCount && !s.oom; ++i )
	{
		const pdBkPiece* p = pieces + i;
		int other = 1 - p->colour;
		const pdBkGrid* gr = grid + other;
		for ( int end = 0; end < 2; ++end )
		{
			double lon = end == 0 ? p->lo : p->hi, z = end == 0 ? p->zLo : p->zHi;
			if ( end == 1 && p->lo == p->hi && p->zLo == p->zHi )
			{
				break;
			}
			int cell = pdBk_Cell( z, -1.0, 1.0, gr->gz ) * gr->gx + pdBk_Cell( lon, -PD_BK_PI, PD_BK_PI, gr->gx );
			for ( int j = gr->cellStart[cell]; j < gr->cellStart[cell + 1]; ++j )
			{
				const pdBkBox* b = boxes + gr->entries[j];
				if ( lon >= b->lo && lon <= b->hi && z >= b->zlo && z <= b->zhi )
				{
					if ( p->colour == 0 )
					{
						pdBk_Test( &s, p->edge, b->edge );
					}
					else
					{
						pdBk_Test( &s, b->edge, p->edge );
					}
				}
			}
		}
	}

	// The sweep: pieces, regions and face nodes as events.
	pdBkBuild build;
	build.items = (pdBkItem*)( base + offItems );
	build.events = (pdBkEvent*)( base + offEvents );
	build.itemCount = 0;
	build.eventCount = 0;
	for ( int i = 0; i < pieceCount; ++i )
	{
		if ( pieces[i].kinetic )
		{
			int k = build.itemCount++;
			build.items[k] = ( pdBkItem ){ PD_BK_PIECE, i, 0, 0, -1 };
			build.events[build.eventCount++] = ( pdBkEvent ){ pieces[i].lo, 0, k };
			build.events[build.eventCount++] = ( pdBkEvent ){ pieces[i].hi, 2, k };
		}
	}
	for ( int c = 0; c < 2; ++c )
	{
		for ( int v = 0; v < V[c]; ++v )
		{
			if ( pdSfog_HasRing( g[c], v ) )
			{
				double lo = 0.0, hi = 0.0, zlo = -1.0, zhi = 1.0;
				bool range = g[c]->decidable && pdSfog_SweepRegionRange( &s.frame, regionPad, g[c], v,
																		 c == 1 ? &r : NULL, &lo, &hi, &zlo, &zhi );
				pdBk_AddRegion( &build, c == 0 ? PD_BK_REGION_A : PD_BK_REGION_B, v, range, lo, hi, zlo, zhi );
			}
		}
		for ( int n = 0; n < N[c]; ++n )
		{
			pdVec3 d = c == 0 ? g[0]->nodeNormals[n] : pdNeg( pdMulMV( &r, g[1]->nodeNormals[n] ) );
			double z = pdDot( d, s.frame.e3 );
			pdBk_AddRegionPiece( &build, c == 0 ? PD_BK_POINT_A : PD_BK_POINT_B, n, pdSfog_SweepLon( &s.frame, d ), 0.0,
								 z, z );
		}
	}
	qsort( build.events, (size_t)build.eventCount, sizeof( pdBkEvent ), pdSfog_CompareSweepEvents );
	stats.events = build.eventCount;

	s.pieces = pieces;
	s.pieceCount = pieceCount;
	s.blocks = (pdBkBlock*)( base + offBlocks );
	s.blockCap = blockCap;
	s.slots = (pdBkSlot*)( base + offSlots );
	s.heap = (int*)( base + offHeap );
	s.heapCount = 0;
	s.root = s.head = s.tail = PD_BK_NONE;
	s.rng = 0x9E3779B9u;
	for ( int k = 0; k < blockCap; ++k )
	{
		s.blocks[k].above = k + 1 < blockCap ? k + 1 : PD_BK_NONE;
		s.blocks[k].size = -1;
	}
	s.freeBlock = 0;
	// Round-off can make the kinetic order inconsistent; the cap turns a runaway into a fallback.
	// Every kinetic event is the crossing of two pieces, and two pieces cross at most once.
	s.kineticCap = (int64_t)pieceCount * (int64_t)pieceCount + 1000000;
	int* active[2] = { (int*)( base + offActive ), (int*)( base + offActive ) + regionCap };
	int activeCount[2] = { 0, 0 };

	for ( int ev = 0; ev < build.eventCount && !s.oom; ++ev )
	{
		const pdBkEvent* e = build.events + ev;
		while ( s.heapCount > 0 && s.slots[s.heap[0]].lon <= e->lon && !s.oom )
		{
			if ( stats.kineticEvents >= s.kineticCap )
			{
				return PD_STATUS_FAILED;
			}
			pdBk_Kinetic( &s );
			pdBk_Check( &s, "kinetic" );
		}
		pdBk_SetMeridian( &s, e->lon );
		pdBkItem* item = build.items + e->item;
		if ( item->kind == PD_BK_PIECE )
		{
			if ( e->order == 0 )
			{
				pdBk_Begin( &s, item->id );
				pdBk_Check( &s, "begin" );
			}
			else
			{
				pdBk_End( &s, item->id );
				pdBk_Check( &s, "end" );
			}
			continue;
		}
		if ( item->kind == PD_BK_REGION_A || item->kind == PD_BK_REGION_B )
		{
			int c = item->kind - PD_BK_REGION_A;
			if ( e->order == 0 )
			{
				item->slot = activeCount[c];
				active[c][activeCount[c]++] = e->item;
			}
			else
			{
				int last = active[c][--activeCount[c]];
				active[c][item->slot] = last;
				build.items[last].slot = item->slot;
				item->slot = -1;
			}
			continue;
		}
		// A face node against the active regions of the other mesh.
		int c = item->kind == PD_BK_POINT_B ? 0 : 1; // the regions' colour
		pdVec3 d = c == 0 ? pdNeg( pdMulMV( &r, g[1]->nodeNormals[item->id] ) )
						  : pdNeg( pdMulMTV( &r, g[0]->nodeNormals[item->id] ) );
		for ( int j = 0; j < activeCount[c]; ++j )
		{
			const pdBkItem* o = build.items + active[c][j];
			if ( o->bandHi < item->bandLo || o->bandLo > item->bandHi )
			{
				continue;
			}
			stats.tests += 1;
			if ( pdSfog_VertexAccepts( g[c], o->id, d, tol ) &&
				 !pdSfog_PushPair( ws, &count, c == 0 ? PD_CONTACT_VF : PD_CONTACT_FV, c == 0 ? o->id : item->id,
								   c == 0 ? item->id : o->id ) )
			{
				return PD_STATUS_OUT_OF_MEMORY;
			}
		}
	}
	if ( s.oom )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	count = pdSfog_SortPairs( ws->sfogPairs.data, count );
	stats.pairsBefore = pdSfog_PairsBefore( g[0], g[1] );
	stats.pairsAfter = count;
	if ( outStats != NULL )
	{
		*outStats = stats;
	}
	*outCount = count;
	*outPairs = ws->sfogPairs.data;
	return PD_STATUS_OK;
}
