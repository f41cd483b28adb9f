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

#ifdef PDI_BK_DEBUG
#include <stdio.h>
#endif

#define PDI_BK_PI 3.14159265358979323846
#define PDI_BK_NONE ( -1 )
#define PDI_BK_STEEP 1e-6     // |axis . pole| below this: the arc's great circle passes (nearly) a pole
#define PDI_BK_TINY 1e-9      // sub-arcs shorter than this have no interior worth sweeping
#define PDI_BK_BACKWARD 1e-9  // a crossing this far behind the meridian is round-off: process it now

typedef enum pdiBkItemKind
{
	PDI_BK_REGION_A = 0,
	PDI_BK_REGION_B = 1,
	PDI_BK_POINT_A = 2,
	PDI_BK_POINT_B = 3,
	PDI_BK_PIECE = 4,
} pdiBkItemKind;

enum
{
	PDI_BK_SLOT_TOP = 0,    ///< a member overtakes the block's top
	PDI_BK_SLOT_BOTTOM = 1, ///< a member falls below the block's bottom
	PDI_BK_SLOT_PURPLE = 2, ///< the block's top crosses the bottom of the block above
};

/// A sub-arc of one great circle, west to east, inside (-pi, pi] of longitude.
typedef struct pdiBkPiece
{
	double lo, hi;     ///< longitude range
	double zLo, zHi;   ///< z (sine of latitude) at the western and eastern end
	double ka, kb;     ///< tan(latitude) on the meridian at longitude l: ka cos l + kb sin l
	int colour;        ///< 0: A, 1: B
	int edge;
	int kinetic;       ///< 1: swept; 0: endpoints only (near-miss grid)
	int block;         ///< block holding it while active, else -1
	int prev, next;    ///< members of the block
} pdiBkPiece;

typedef struct pdiBkBlock
{
	int colour;
	int head, size, top, bottom;
	int left, right, parent; ///< treap
	uint32_t prio;
	int below, above;        ///< neighbours along the meridian
} pdiBkBlock;

typedef struct pdiBkSlot
{
	double lon;
	int piece;   ///< the member that overtakes the limit (TOP, BOTTOM)
	int heapPos; ///< -1 when not queued
} pdiBkSlot;

typedef struct pdiBkItem
{
	int kind;
	int id;
	int bandLo, bandHi;
	int slot;
} pdiBkItem;

typedef pdiSfogSweepEvent pdiBkEvent;

typedef struct pdiBkBox
{
	double lo, hi, zlo, zhi;
	int edge;
} pdiBkBox;

typedef struct pdiBkGrid
{
	int gx, gz;
	int* cellStart; ///< [gx * gz + 1]
	int* entries;   ///< box ids
} pdiBkGrid;

typedef struct pdiBk
{
	pdiSfogSweepFrame frame;
	const pdiSfog* sfog[2];
	pdiMat33 r;
	pdWorkspace* ws;
	int* pairCount;
	pdiSfogOverlayStats* stats;

	pdiBkPiece* pieces;
	int pieceCount;
	pdiBkBlock* blocks;
	int blockCap, freeBlock, root, head, tail;
	uint32_t rng;
	pdiBkSlot* slots;
	int* heap;
	int heapCount;
	int64_t kineticCap;

	double cur, cosCur, sinCur;
	bool oom;
} pdiBk;

// ---------------------------------------------------------------------------------------------
// Geometry on the meridian

static void pdiBk_SetMeridian( pdiBk* s, double lon )
{
	if ( lon != s->cur )
	{
		s->cur = lon;
		s->cosCur = cos( lon );
		s->sinCur = sin( lon );
	}
}

static double pdiBk_Key( const pdiBk* s, int p )
{
	const pdiBkPiece* q = s->pieces + p;
	return q->ka * s->cosCur + q->kb * s->sinCur;
}

static double pdiBk_Slope( const pdiBk* s, int p )
{
	const pdiBkPiece* q = s->pieces + p;
	return -q->ka * s->sinCur + q->kb * s->cosCur;
}

// True when piece i is above piece j just east of the meridian.
static bool pdiBk_Above( const pdiBk* s, int i, int j )
{
	double ki = pdiBk_Key( s, i ), kj = pdiBk_Key( s, j );
	if ( fabs( ki - kj ) > 1e-12 * ( 1.0 + fabs( ki ) + fabs( kj ) ) )
	{
		return ki > kj;
	}
	double si = pdiBk_Slope( s, i ), sj = pdiBk_Slope( s, j );
	if ( si != sj )
	{
		return si > sj;
	}
	return i > j;
}

// Longitude (>= the meridian) where piece i rises above piece j, or INFINITY when it does not
// before either ends. Two great circles cross twice, pi apart, and a piece spans less than pi.
static double pdiBk_Rising( const pdiBk* s, int i, int j )
{
	const pdiBkPiece* pi = s->pieces + i;
	const pdiBkPiece* pj = s->pieces + j;
	double a = pi->ka - pj->ka, b = pi->kb - pj->kb;
	if ( a == 0.0 && b == 0.0 )
	{
		return INFINITY;
	}
	// D(l) = a cos l + b sin l = R cos(l - theta) goes from - to + at theta - pi/2.
	double l = atan2( b, a ) - 0.5 * PDI_BK_PI;
	double from = s->cur - PDI_BK_BACKWARD;
	while ( l < from )
	{
		l += 2.0 * PDI_BK_PI;
	}
	while ( l - 2.0 * PDI_BK_PI >= from )
	{
		l -= 2.0 * PDI_BK_PI;
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

static bool pdiBk_HeapLess( const pdiBk* s, int x, int y )
{
	double lx = s->slots[x].lon, ly = s->slots[y].lon;
	return lx < ly || ( lx == ly && x < y );
}

static void pdiBk_HeapSwap( pdiBk* s, int i, int j )
{
	int x = s->heap[i], y = s->heap[j];
	s->heap[i] = y;
	s->heap[j] = x;
	s->slots[y].heapPos = i;
	s->slots[x].heapPos = j;
}

static void pdiBk_HeapUp( pdiBk* s, int i )
{
	while ( i > 0 )
	{
		int p = ( i - 1 ) / 2;
		if ( !pdiBk_HeapLess( s, s->heap[i], s->heap[p] ) )
		{
			break;
		}
		pdiBk_HeapSwap( s, i, p );
		i = p;
	}
}

static void pdiBk_HeapDown( pdiBk* s, int i )
{
	for ( ;; )
	{
		int l = 2 * i + 1, r = l + 1, m = i;
		if ( l < s->heapCount && pdiBk_HeapLess( s, s->heap[l], s->heap[m] ) )
		{
			m = l;
		}
		if ( r < s->heapCount && pdiBk_HeapLess( s, s->heap[r], s->heap[m] ) )
		{
			m = r;
		}
		if ( m == i )
		{
			return;
		}
		pdiBk_HeapSwap( s, i, m );
		i = m;
	}
}

static void pdiBk_SetSlot( pdiBk* s, int slot, double lon, int piece )
{
	pdiBkSlot* q = s->slots + slot;
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
				pdiBk_HeapUp( s, i );
				pdiBk_HeapDown( s, s->slots[last].heapPos );
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
		pdiBk_HeapUp( s, q->heapPos );
		return;
	}
	pdiBk_HeapUp( s, q->heapPos );
	pdiBk_HeapDown( s, q->heapPos );
}

// ---------------------------------------------------------------------------------------------
// Blocks: treap in meridian order plus neighbour links.

static void pdiBk_Rotate( pdiBk* s, int x )
{
	pdiBkBlock* B = s->blocks;
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
static int pdiBk_NewBlock( pdiBk* s, int after, int colour )
{
	int n = s->freeBlock;
	pdiBkBlock* B = s->blocks;
#ifdef PDI_BK_DEBUG
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
	B[n] = ( pdiBkBlock ){ colour, PDI_BK_NONE, 0, PDI_BK_NONE, PDI_BK_NONE, PDI_BK_NONE, PDI_BK_NONE,
						  PDI_BK_NONE, s->rng,   PDI_BK_NONE, PDI_BK_NONE };
	for ( int k = 0; k < 3; ++k )
	{
		s->slots[3 * n + k] = ( pdiBkSlot ){ INFINITY, PDI_BK_NONE, -1 };
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
			pdiBk_Rotate( s, n );
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

static void pdiBk_DeleteBlock( pdiBk* s, int n )
{
	pdiBkBlock* B = s->blocks;
	while ( B[n].left >= 0 || B[n].right >= 0 )
	{
		int l = B[n].left, r = B[n].right;
		int c = l < 0 ? r : ( r < 0 ? l : ( B[l].prio > B[r].prio ? l : r ) );
		pdiBk_Rotate( s, c );
	}
	int p = B[n].parent;
	if ( p < 0 )
	{
		s->root = PDI_BK_NONE;
	}
	else if ( B[p].left == n )
	{
		B[p].left = PDI_BK_NONE;
	}
	else
	{
		B[p].right = PDI_BK_NONE;
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
		pdiBk_SetSlot( s, 3 * n + k, INFINITY, PDI_BK_NONE );
	}
#ifdef PDI_BK_DEBUG
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

static void pdiBk_AddMember( pdiBk* s, int k, int p )
{
	pdiBkPiece* q = s->pieces + p;
	pdiBkBlock* b = s->blocks + k;
	q->block = k;
	q->prev = PDI_BK_NONE;
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

static void pdiBk_RemoveMember( pdiBk* s, int k, int p )
{
	pdiBkPiece* q = s->pieces + p;
	pdiBkBlock* b = s->blocks + k;
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
	q->block = PDI_BK_NONE;
	b->size -= 1;
}

static void pdiBk_RecomputeTop( pdiBk* s, int k )
{
	int best = s->blocks[k].head;
	for ( int m = best >= 0 ? s->pieces[best].next : PDI_BK_NONE; m >= 0; m = s->pieces[m].next )
	{
		if ( pdiBk_Above( s, m, best ) )
		{
			best = m;
		}
	}
	s->blocks[k].top = best;
}

static void pdiBk_RecomputeBottom( pdiBk* s, int k )
{
	int best = s->blocks[k].head;
	for ( int m = best >= 0 ? s->pieces[best].next : PDI_BK_NONE; m >= 0; m = s->pieces[m].next )
	{
		if ( pdiBk_Above( s, best, m ) )
		{
			best = m;
		}
	}
	s->blocks[k].bottom = best;
}

// The monochromatic crossings that matter: the first member to overtake the top ...
static void pdiBk_ScheduleTop( pdiBk* s, int k )
{
	const pdiBkBlock* b = s->blocks + k;
	double best = INFINITY;
	int who = PDI_BK_NONE;
	for ( int m = b->head; m >= 0 && b->size > 1; m = s->pieces[m].next )
	{
		if ( m != b->top )
		{
			double l = pdiBk_Rising( s, m, b->top );
			if ( l < best )
			{
				best = l;
				who = m;
			}
		}
	}
	pdiBk_SetSlot( s, 3 * k + PDI_BK_SLOT_TOP, best, who );
}

// ... and the first to fall below the bottom.
static void pdiBk_ScheduleBottom( pdiBk* s, int k )
{
	const pdiBkBlock* b = s->blocks + k;
	double best = INFINITY;
	int who = PDI_BK_NONE;
	for ( int m = b->head; m >= 0 && b->size > 1; m = s->pieces[m].next )
	{
		if ( m != b->bottom )
		{
			double l = pdiBk_Rising( s, b->bottom, m );
			if ( l < best )
			{
				best = l;
				who = m;
			}
		}
	}
	pdiBk_SetSlot( s, 3 * k + PDI_BK_SLOT_BOTTOM, best, who );
}

// A new member that is not a limit only needs its own crossings with the limits.
static void pdiBk_ScheduleMember( pdiBk* s, int k, int m )
{
	const pdiBkBlock* b = s->blocks + k;
	if ( m != b->top )
	{
		double l = pdiBk_Rising( s, m, b->top );
		if ( l < s->slots[3 * k + PDI_BK_SLOT_TOP].lon )
		{
			pdiBk_SetSlot( s, 3 * k + PDI_BK_SLOT_TOP, l, m );
		}
	}
	if ( m != b->bottom )
	{
		double l = pdiBk_Rising( s, b->bottom, m );
		if ( l < s->slots[3 * k + PDI_BK_SLOT_BOTTOM].lon )
		{
			pdiBk_SetSlot( s, 3 * k + PDI_BK_SLOT_BOTTOM, l, m );
		}
	}
}

static void pdiBk_SchedulePurple( pdiBk* s, int k )
{
	if ( k < 0 )
	{
		return;
	}
	int u = s->blocks[k].above;
	double l = u >= 0 ? pdiBk_Rising( s, s->blocks[k].top, s->blocks[u].bottom ) : INFINITY;
	pdiBk_SetSlot( s, 3 * k + PDI_BK_SLOT_PURPLE, l, PDI_BK_NONE );
}

// Everything of block k from scratch (its limits must be right).
static void pdiBk_Touch( pdiBk* s, int k )
{
	pdiBk_ScheduleTop( s, k );
	pdiBk_ScheduleBottom( s, k );
	pdiBk_SchedulePurple( s, k );
	pdiBk_SchedulePurple( s, s->blocks[k].below );
}

// ---------------------------------------------------------------------------------------------
// Events

static void pdiBk_Test( pdiBk* s, int edgeA, int edgeB )
{
	s->stats->tests += 1;
	if ( pdiSfog_ArcsCross( s->sfog[0], edgeA, s->sfog[1], edgeB, &s->r, PDI_SFOG_ANGLE_TOLERANCE ) &&
		 !pdiSfog_PushPair( s->ws, s->pairCount, PD_CONTACT_EE, edgeA, edgeB ) )
	{
		s->oom = true;
	}
}

static void pdiBk_TestPieces( pdiBk* s, int p, int q )
{
	const pdiBkPiece* a = s->pieces + p;
	const pdiBkPiece* b = s->pieces + q;
	if ( a->colour == 0 )
	{
		pdiBk_Test( s, a->edge, b->edge );
	}
	else
	{
		pdiBk_Test( s, b->edge, a->edge );
	}
}

// Two blocks of one colour that became neighbours become one.
static int pdiBk_Merge( pdiBk* s, int lower, int upper )
{
	pdiBkBlock* B = s->blocks;
	int keep = B[lower].size >= B[upper].size ? lower : upper;
	int gone = keep == lower ? upper : lower;
	int top = B[upper].top, bottom = B[lower].bottom;
	for ( int m = B[gone].head; m >= 0; )
	{
		int next = s->pieces[m].next;
		pdiBk_AddMember( s, keep, m );
		m = next;
	}
	B[gone].head = PDI_BK_NONE;
	B[gone].size = 0;
	pdiBk_DeleteBlock( s, gone );
	B[keep].top = top;
	B[keep].bottom = bottom;
	return keep;
}

static void pdiBk_Begin( pdiBk* s, int p )
{
	int colour = s->pieces[p].colour;
	pdiBkBlock* B = s->blocks;
	if ( s->root < 0 )
	{
		int k = pdiBk_NewBlock( s, PDI_BK_NONE, colour );
		pdiBk_AddMember( s, k, p );
		pdiBk_Touch( s, k );
		return;
	}
	// Locate p along the meridian: inside a block, or in the gap below `succ`.
	int node = s->root, succ = PDI_BK_NONE, inside = PDI_BK_NONE;
	while ( node >= 0 )
	{
		if ( pdiBk_Above( s, p, B[node].top ) )
		{
			node = B[node].right;
		}
		else if ( pdiBk_Above( s, B[node].bottom, p ) )
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
		pdiBk_AddMember( s, inside, p );
		pdiBk_ScheduleMember( s, inside, p );
		return;
	}
	if ( inside >= 0 )
	{
		int k = inside, aboveCount = 0;
		for ( int m = B[k].head; m >= 0; m = s->pieces[m].next )
		{
			aboveCount += pdiBk_Above( s, m, p ) ? 1 : 0;
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
			int mid = pdiBk_NewBlock( s, k, colour );
			int h = pdiBk_NewBlock( s, mid, B[k].colour );
			int oldTop = B[k].top;
			for ( int m = B[k].head; m >= 0; )
			{
				int next = s->pieces[m].next;
				if ( pdiBk_Above( s, m, p ) )
				{
					pdiBk_RemoveMember( s, k, m );
					pdiBk_AddMember( s, h, m );
				}
				m = next;
			}
			pdiBk_AddMember( s, mid, p );
			B[h].top = oldTop;
			pdiBk_RecomputeTop( s, k );
			pdiBk_RecomputeBottom( s, h );
			pdiBk_Touch( s, k );
			pdiBk_Touch( s, mid );
			pdiBk_Touch( s, h );
			return;
		}
	}
	int upper = succ;
	int lower = upper >= 0 ? B[upper].below : s->tail;
	if ( upper >= 0 && B[upper].colour == colour )
	{
		pdiBk_AddMember( s, upper, p );
		B[upper].bottom = p;
		pdiBk_ScheduleBottom( s, upper );
		pdiBk_ScheduleMember( s, upper, p );
		pdiBk_SchedulePurple( s, lower );
		return;
	}
	if ( lower >= 0 && B[lower].colour == colour )
	{
		pdiBk_AddMember( s, lower, p );
		B[lower].top = p;
		pdiBk_ScheduleTop( s, lower );
		pdiBk_ScheduleMember( s, lower, p );
		pdiBk_SchedulePurple( s, lower );
		return;
	}
	int k = pdiBk_NewBlock( s, lower, colour );
	pdiBk_AddMember( s, k, p );
	pdiBk_Touch( s, k );
}

static void pdiBk_End( pdiBk* s, int p )
{
	int k = s->pieces[p].block;
	if ( k < 0 )
	{
		return;
	}
	pdiBkBlock* B = s->blocks;
	pdiBk_RemoveMember( s, k, p );
	if ( B[k].size == 0 )
	{
		int lower = B[k].below, upper = B[k].above;
		pdiBk_DeleteBlock( s, k );
		if ( lower >= 0 && upper >= 0 )
		{
			int m = pdiBk_Merge( s, lower, upper );
			pdiBk_Touch( s, m );
		}
		else
		{
			pdiBk_SchedulePurple( s, lower );
		}
		return;
	}
	if ( p == B[k].top )
	{
		pdiBk_RecomputeTop( s, k );
		pdiBk_ScheduleTop( s, k );
		pdiBk_SchedulePurple( s, k );
	}
	else if ( s->slots[3 * k + PDI_BK_SLOT_TOP].piece == p )
	{
		pdiBk_ScheduleTop( s, k );
	}
	if ( p == B[k].bottom )
	{
		pdiBk_RecomputeBottom( s, k );
		pdiBk_ScheduleBottom( s, k );
		pdiBk_SchedulePurple( s, B[k].below );
	}
	else if ( s->slots[3 * k + PDI_BK_SLOT_BOTTOM].piece == p )
	{
		pdiBk_ScheduleBottom( s, k );
	}
}

static void pdiBk_Purple( pdiBk* s, int k )
{
	pdiBkBlock* B = s->blocks;
	int u = B[k].above;
	int t = B[k].top, b = B[u].bottom;
	s->stats->purpleEvents += 1;
	pdiBk_TestPieces( s, t, b );
	// Order before: ... k (with t on top), u (with b at the bottom) ...; after: k \ t, b, t, u \ b.
	pdiBk_RemoveMember( s, k, t );
	pdiBk_RemoveMember( s, u, b );
	int touched[6];
	int n = 0;
	int low;
	if ( B[k].size == 0 )
	{
		int below = B[k].below;
		pdiBk_DeleteBlock( s, k );
		if ( below >= 0 )
		{
			pdiBk_AddMember( s, below, b );
			B[below].top = b;
			low = below;
		}
		else
		{
			low = pdiBk_NewBlock( s, PDI_BK_NONE, B[u].colour );
			pdiBk_AddMember( s, low, b );
		}
	}
	else
	{
		pdiBk_RecomputeTop( s, k );
		if ( B[k].bottom == t )
		{
			pdiBk_RecomputeBottom( s, k );
		}
		touched[n++] = k;
		low = pdiBk_NewBlock( s, k, B[u].colour );
		pdiBk_AddMember( s, low, b );
	}
	touched[n++] = low;
	int high;
	if ( B[u].size == 0 )
	{
		int above = B[u].above;
		pdiBk_DeleteBlock( s, u );
		if ( above >= 0 )
		{
			pdiBk_AddMember( s, above, t );
			B[above].bottom = t;
			high = above;
		}
		else
		{
			high = pdiBk_NewBlock( s, low, s->pieces[t].colour );
			pdiBk_AddMember( s, high, t );
		}
	}
	else
	{
		pdiBk_RecomputeBottom( s, u );
		if ( B[u].top == b )
		{
			pdiBk_RecomputeTop( s, u );
		}
		high = pdiBk_NewBlock( s, low, s->pieces[t].colour );
		pdiBk_AddMember( s, high, t );
		touched[n++] = u;
	}
	touched[n++] = high;
	for ( int i = 0; i < n; ++i )
	{
		pdiBk_Touch( s, touched[i] );
	}
#ifdef PDI_BK_DEBUG
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

static void pdiBk_Kinetic( pdiBk* s )
{
	int slot = s->heap[0];
	int k = slot / 3, kind = slot % 3;
	double lon = s->slots[slot].lon;
	int m = s->slots[slot].piece;
	pdiBk_SetSlot( s, slot, INFINITY, PDI_BK_NONE );
	pdiBk_SetMeridian( s, lon );
	s->stats->kineticEvents += 1;
	pdiBkBlock* B = s->blocks;
#ifdef PDI_BK_DEBUG
	if ( kind != PDI_BK_SLOT_PURPLE && ( m < 0 || s->pieces[m].block != k ) )
	{
		fprintf( stderr, "kinetic kind %d block %d piece %d (in %d) lon %.17g\n", kind, k, m,
				 m >= 0 ? s->pieces[m].block : -9, lon );
		abort();
	}
#endif
	if ( kind == PDI_BK_SLOT_TOP )
	{
		B[k].top = m;
		pdiBk_ScheduleTop( s, k );
		pdiBk_SchedulePurple( s, k );
		if ( m == B[k].bottom )
		{
			// The old top and bottom swapped (a two-member block, or a tie): the bottom event
			// of the same crossing may not have come yet.
			pdiBk_RecomputeBottom( s, k );
			pdiBk_ScheduleBottom( s, k );
			pdiBk_SchedulePurple( s, B[k].below );
		}
	}
	else if ( kind == PDI_BK_SLOT_BOTTOM )
	{
		B[k].bottom = m;
		pdiBk_ScheduleBottom( s, k );
		pdiBk_SchedulePurple( s, B[k].below );
		if ( m == B[k].top )
		{
			pdiBk_RecomputeTop( s, k );
			pdiBk_ScheduleTop( s, k );
			pdiBk_SchedulePurple( s, k );
		}
	}
	else
	{
		pdiBk_Purple( s, k );
	}
}


#ifdef PDI_BK_DEBUG
// Debug builds of the harness only: every structural invariant after every event.
static void pdiBk_Check( pdiBk* s, const char* where )
{
	int n = 0, prev = PDI_BK_NONE;
	for ( int k = s->head; k >= 0; k = s->blocks[k].above )
	{
		const pdiBkBlock* b = s->blocks + k;
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
#define pdiBk_Check( s, where ) ( (void)0 )
#endif

// ---------------------------------------------------------------------------------------------
// Setup

typedef struct pdiBkBuild
{
	pdiBkItem* items;
	int itemCount;
	pdiBkEvent* events;
	int eventCount;
} pdiBkBuild;

static void pdiBk_AddRegionPiece( pdiBkBuild* b, int kind, int id, double lo, double hi, double zlo, double zhi )
{
	int k = b->itemCount++;
	b->items[k] = ( pdiBkItem ){ kind, id, pdiSfog_SweepBand( zlo ), pdiSfog_SweepBand( zhi ), -1 };
	if ( kind == PDI_BK_POINT_A || kind == PDI_BK_POINT_B )
	{
		b->events[b->eventCount++] = ( pdiBkEvent ){ lo, 1, k };
		return;
	}
	b->events[b->eventCount++] = ( pdiBkEvent ){ lo, 0, k };
	b->events[b->eventCount++] = ( pdiBkEvent ){ hi, 2, k };
}

static void pdiBk_AddRegion( pdiBkBuild* b, int kind, int id, bool range, double lo, double hi, double zlo, double zhi )
{
	double pLo[2], pHi[2], pZLo[2], pZHi[2];
	int n = pdiSfog_SweepPieces( range, lo, hi, zlo, zhi, pLo, pHi, pZLo, pZHi );
	for ( int i = 0; i < n; ++i )
	{
		pdiBk_AddRegionPiece( b, kind, id, pLo[i], pHi[i], pZLo[i], pZHi[i] );
	}
}

// Pieces of one arc (sub-arcs of one great circle inside (-pi, pi]); false when the sweep
// cannot order it (the arc is then tested against every arc of the other colour).
static bool pdiBk_ArcPieces( const pdiSfogSweepFrame* f, const pdVec3* pts, int n, int colour, int edge,
							pdiBkPiece* out, int* outCount )
{
	*outCount = 0;
	if ( n == 1 )
	{
		double lon = pdiSfog_SweepLon( f, pts[0] ), z = pdiDot( pts[0], f->e3 );
		out[( *outCount )++] = ( pdiBkPiece ){ lon, lon, z, z, 0.0, 0.0, colour, edge, 0, PDI_BK_NONE, PDI_BK_NONE, PDI_BK_NONE };
		return true;
	}
	for ( int i = 0; i + 1 < n; ++i )
	{
		pdVec3 p = pts[i], q = pts[i + 1];
		pdVec3 c = pdiCross( p, q );
		double len = pdiLength( c );
		double lp = pdiSfog_SweepLon( f, p ), lq = pdiSfog_SweepLon( f, q );
		double zp = pdiDot( p, f->e3 ), zq = pdiDot( q, f->e3 );
		if ( len < PDI_BK_TINY )
		{
			out[( *outCount )++] =
				( pdiBkPiece ){ lp, lq, zp, zq, 0.0, 0.0, colour, edge, 0, PDI_BK_NONE, PDI_BK_NONE, PDI_BK_NONE };
			continue;
		}
		c = pdiScale( c, 1.0 / len );
		double c3 = pdiDot( c, f->e3 );
		if ( fabs( c3 ) < PDI_BK_STEEP )
		{
			return false;
		}
		double ka = -pdiDot( c, f->e1 ) / c3, kb = -pdiDot( c, f->e2 ) / c3;
		bool east = pdiDot( c, f->e3 ) > 0.0; // p -> q runs east
		double lw = east ? lp : lq, le = east ? lq : lp;
		double zw = east ? zp : zq, ze = east ? zq : zp;
		double d = le - lw;
		while ( d < 0.0 )
		{
			d += 2.0 * PDI_BK_PI;
		}
		while ( d >= 2.0 * PDI_BK_PI )
		{
			d -= 2.0 * PDI_BK_PI;
		}
		if ( d >= PDI_BK_PI )
		{
			return false; // a minor arc away from the poles spans less than pi
		}
		if ( lw + d <= PDI_BK_PI )
		{
			out[( *outCount )++] = ( pdiBkPiece ){ lw, lw + d, zw, ze, ka, kb, colour, edge, 1, PDI_BK_NONE, PDI_BK_NONE, PDI_BK_NONE };
			continue;
		}
		// Across the seam at longitude pi.
		double k = -ka; // tan(latitude) at pi: ka cos(pi) + kb sin(pi)
		double zs = k / sqrt( 1.0 + k * k );
		out[( *outCount )++] = ( pdiBkPiece ){ lw, PDI_BK_PI, zw, zs, ka, kb, colour, edge, 1, PDI_BK_NONE, PDI_BK_NONE, PDI_BK_NONE };
		out[( *outCount )++] = ( pdiBkPiece ){ -PDI_BK_PI, lw + d - 2.0 * PDI_BK_PI, zs, ze, ka, kb, colour, edge, 1,
											  PDI_BK_NONE, PDI_BK_NONE, PDI_BK_NONE };
	}
	return true;
}

static int pdiBk_Cell( double v, double lo, double hi, int n )
{
	int i = (int)floor( ( v - lo ) / ( hi - lo ) * n );
	return i < 0 ? 0 : ( i >= n ? n - 1 : i );
}

// ---------------------------------------------------------------------------------------------

pdStatus pdiSfog_OverlayBlocks( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							   const pdiMat33* rotationB, pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
							   pdiSfogOverlayStats* outStats )
{
	pdiSfogOverlayStats stats = { 0 };
	if ( !pdiSfog_StartOverlay( meshA, rotationA, meshB, rotationB, ws, outCount, outPairs, outStats ) )
	{
		return PD_STATUS_FAILED;
	}
	const double tol = PDI_SFOG_ANGLE_TOLERANCE;
	const double regionPad = 2.0 * tol + 1e-9;
	// Near misses accepted by the arc predicate lie within about 2 tol of an endpoint.
	const double nearPad = 4.0 * tol + 1e-9;
	const pdiSfog* g[2] = { meshA->sfog, meshB->sfog };
	pdiMat33 r = pdiSfog_RelativeRotation( rotationA, rotationB );
	pdiMat33 reflect[2];
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
#define PDI_BK_TAKE( name, type, count )                                                                                \
	size_t name = off;                                                                                                 \
	off += ( ( sizeof( type ) * (size_t)( count ) ) + 7u ) & ~(size_t)7u
	PDI_BK_TAKE( offEvents, pdiBkEvent, eventCap );
	PDI_BK_TAKE( offPieces, pdiBkPiece, pieceCap );
	PDI_BK_TAKE( offBoxes, pdiBkBox, boxCap );
	PDI_BK_TAKE( offSlots, pdiBkSlot, 3 * blockCap );
	PDI_BK_TAKE( offBlocks, pdiBkBlock, blockCap );
	PDI_BK_TAKE( offItems, pdiBkItem, itemCap );
	PDI_BK_TAKE( offHeap, int, 3 * blockCap );
	PDI_BK_TAKE( offActive, int, 2 * regionCap );
	PDI_BK_TAKE( offBrute, uint8_t, E[0] + E[1] + 1 );
	size_t phaseOne = off;
	if ( !pdiBuffer_Reserve( &ws->sfogScratch, phaseOne + 64, false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	char* base = ws->sfogScratch.data;
	pdiBk s;
	memset( &s, 0, sizeof( s ) );
	pdiSfog_SweepFrame( &s.frame );
	s.sfog[0] = g[0];
	s.sfog[1] = g[1];
	s.r = r;
	s.ws = ws;
	int count = 0;
	s.pairCount = &count;
	s.stats = &stats;
	s.cur = NAN;

	// Arc pieces and near-miss boxes, per colour.
	pdiBkPiece* pieces = (pdiBkPiece*)( base + offPieces );
	pdiBkBox* boxes = (pdiBkBox*)( base + offBoxes );
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
			int n = g[c]->decidable ? pdiSfog_SweepArcChain( g[c], e, c == 1 ? &reflect[1] : NULL, pts ) : 0;
			double lo = 0.0, hi = 0.0, zlo = 0.0, zhi = 0.0;
			int got = 0;
			bool ok = n > 0 && pdiSfog_SweepRange( &s.frame, pts, n, false, nearPad, &lo, &hi, &zlo, &zhi ) &&
					  pdiBk_ArcPieces( &s.frame, pts, n, c, e, pieces + pieceCount, &got );
			brute[c * E[0] + e] = ok ? 0 : 1;
			if ( !ok )
			{
				continue;
			}
			pieceCount += got;
			double k = floor( ( lo + PDI_BK_PI ) / ( 2.0 * PDI_BK_PI ) );
			lo -= 2.0 * PDI_BK_PI * k;
			hi -= 2.0 * PDI_BK_PI * k;
			if ( hi <= PDI_BK_PI )
			{
				boxes[totalBoxes++] = ( pdiBkBox ){ lo, hi, zlo, zhi, e };
			}
			else
			{
				boxes[totalBoxes++] = ( pdiBkBox ){ lo, PDI_BK_PI + 1e-9, zlo, zhi, e };
				boxes[totalBoxes++] = ( pdiBkBox ){ -PDI_BK_PI - 1e-9, hi - 2.0 * PDI_BK_PI, zlo, zhi, e };
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
			const pdiBkBox* b = boxes + boxFirst[c] + i;
			int x0 = pdiBk_Cell( b->lo, -PDI_BK_PI, PDI_BK_PI, 2 * gz ), x1 = pdiBk_Cell( b->hi, -PDI_BK_PI, PDI_BK_PI, 2 * gz );
			int z0 = pdiBk_Cell( b->zlo, -1.0, 1.0, gz ), z1 = pdiBk_Cell( b->zhi, -1.0, 1.0, gz );
			entryCount[c] += (size_t)( x1 - x0 + 1 ) * (size_t)( z1 - z0 + 1 );
		}
	}
	size_t offCells = off;
	off += ( sizeof( int ) * cells + 7u ) & ~(size_t)7u;
	size_t offEntries = off;
	off += ( sizeof( int ) * ( entryCount[0] + entryCount[1] + 1 ) + 7u ) & ~(size_t)7u;
	if ( !pdiBuffer_Reserve( &ws->sfogScratch, off + 64, true ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	base = ws->sfogScratch.data;
	pieces = (pdiBkPiece*)( base + offPieces );
	boxes = (pdiBkBox*)( base + offBoxes );
	brute = (uint8_t*)( base + offBrute );
	pdiBkGrid grid[2];
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
					const pdiBkBox* b = boxes + boxFirst[c] + i;
					int x0 = pdiBk_Cell( b->lo, -PDI_BK_PI, PDI_BK_PI, gx ), x1 = pdiBk_Cell( b->hi, -PDI_BK_PI, PDI_BK_PI, gx );
					int z0 = pdiBk_Cell( b->zlo, -1.0, 1.0, gz ), z1 = pdiBk_Cell( b->zhi, -1.0, 1.0, gz );
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
				pdiBk_Test( &s, eA, eB );
			}
		}
	}
	for ( int eB = 0; eB < E[1] && !s.oom; ++eB )
	{
		if ( brute[E[0] + eB] )
		{
			for ( int eA = 0; eA < E[0]; ++eA )
			{
				pdiBk_Test( &s, eA, eB );
			}
		}
	}
	// Near misses: every piece endpoint against the other colour's padded arc boxes.
	for ( int i = 0; i < pieceCount && !s.oom; ++i )
	{
		const pdiBkPiece* p = pieces + i;
		int other = 1 - p->colour;
		const pdiBkGrid* gr = grid + other;
		for ( int end = 0; end < 2; ++end )
		{
			double lon = end == 0 ? p->lo : p->hi, z = end == 0 ? p->zLo : p->zHi;
			if ( end == 1 && p->lo == p->hi && p->zLo == p->zHi )
			{
				break;
			}
			int cell = pdiBk_Cell( z, -1.0, 1.0, gr->gz ) * gr->gx + pdiBk_Cell( lon, -PDI_BK_PI, PDI_BK_PI, gr->gx );
			for ( int j = gr->cellStart[cell]; j < gr->cellStart[cell + 1]; ++j )
			{
				const pdiBkBox* b = boxes + gr->entries[j];
				if ( lon >= b->lo && lon <= b->hi && z >= b->zlo && z <= b->zhi )
				{
					if ( p->colour == 0 )
					{
						pdiBk_Test( &s, p->edge, b->edge );
					}
					else
					{
						pdiBk_Test( &s, b->edge, p->edge );
					}
				}
			}
		}
	}

	// The sweep: pieces, regions and face nodes as events.
	pdiBkBuild build;
	build.items = (pdiBkItem*)( base + offItems );
	build.events = (pdiBkEvent*)( base + offEvents );
	build.itemCount = 0;
	build.eventCount = 0;
	for ( int i = 0; i < pieceCount; ++i )
	{
		if ( pieces[i].kinetic )
		{
			int k = build.itemCount++;
			build.items[k] = ( pdiBkItem ){ PDI_BK_PIECE, i, 0, 0, -1 };
			build.events[build.eventCount++] = ( pdiBkEvent ){ pieces[i].lo, 0, k };
			build.events[build.eventCount++] = ( pdiBkEvent ){ pieces[i].hi, 2, k };
		}
	}
	for ( int c = 0; c < 2; ++c )
	{
		for ( int v = 0; v < V[c]; ++v )
		{
			if ( pdiSfog_HasRing( g[c], v ) )
			{
				double lo = 0.0, hi = 0.0, zlo = -1.0, zhi = 1.0;
				bool range = g[c]->decidable && pdiSfog_SweepRegionRange( &s.frame, regionPad, g[c], v,
																		 c == 1 ? &r : NULL, &lo, &hi, &zlo, &zhi );
				pdiBk_AddRegion( &build, c == 0 ? PDI_BK_REGION_A : PDI_BK_REGION_B, v, range, lo, hi, zlo, zhi );
			}
		}
		for ( int n = 0; n < N[c]; ++n )
		{
			pdVec3 d = c == 0 ? g[0]->nodeNormals[n] : pdiNeg( pdiMulMV( &r, g[1]->nodeNormals[n] ) );
			double z = pdiDot( d, s.frame.e3 );
			pdiBk_AddRegionPiece( &build, c == 0 ? PDI_BK_POINT_A : PDI_BK_POINT_B, n, pdiSfog_SweepLon( &s.frame, d ), 0.0,
								 z, z );
		}
	}
	qsort( build.events, (size_t)build.eventCount, sizeof( pdiBkEvent ), pdiSfog_CompareSweepEvents );
	stats.events = build.eventCount;

	s.pieces = pieces;
	s.pieceCount = pieceCount;
	s.blocks = (pdiBkBlock*)( base + offBlocks );
	s.blockCap = blockCap;
	s.slots = (pdiBkSlot*)( base + offSlots );
	s.heap = (int*)( base + offHeap );
	s.heapCount = 0;
	s.root = s.head = s.tail = PDI_BK_NONE;
	s.rng = 0x9E3779B9u;
	for ( int k = 0; k < blockCap; ++k )
	{
		s.blocks[k].above = k + 1 < blockCap ? k + 1 : PDI_BK_NONE;
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
		const pdiBkEvent* e = build.events + ev;
		while ( s.heapCount > 0 && s.slots[s.heap[0]].lon <= e->lon && !s.oom )
		{
			if ( stats.kineticEvents >= s.kineticCap )
			{
				return PD_STATUS_FAILED;
			}
			pdiBk_Kinetic( &s );
			pdiBk_Check( &s, "kinetic" );
		}
		pdiBk_SetMeridian( &s, e->lon );
		pdiBkItem* item = build.items + e->item;
		if ( item->kind == PDI_BK_PIECE )
		{
			if ( e->order == 0 )
			{
				pdiBk_Begin( &s, item->id );
				pdiBk_Check( &s, "begin" );
			}
			else
			{
				pdiBk_End( &s, item->id );
				pdiBk_Check( &s, "end" );
			}
			continue;
		}
		if ( item->kind == PDI_BK_REGION_A || item->kind == PDI_BK_REGION_B )
		{
			int c = item->kind - PDI_BK_REGION_A;
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
		int c = item->kind == PDI_BK_POINT_B ? 0 : 1; // the regions' colour
		pdVec3 d = c == 0 ? pdiNeg( pdiMulMV( &r, g[1]->nodeNormals[item->id] ) )
						  : pdiNeg( pdiMulMTV( &r, g[0]->nodeNormals[item->id] ) );
		for ( int j = 0; j < activeCount[c]; ++j )
		{
			const pdiBkItem* o = build.items + active[c][j];
			if ( o->bandHi < item->bandLo || o->bandLo > item->bandHi )
			{
				continue;
			}
			stats.tests += 1;
			if ( pdiSfog_VertexAccepts( g[c], o->id, d, tol ) &&
				 !pdiSfog_PushPair( ws, &count, c == 0 ? PD_CONTACT_VF : PD_CONTACT_FV, c == 0 ? o->id : item->id,
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
	count = pdiSfog_SortPairs( ws->sfogPairs.data, count );
	stats.pairsBefore = pdiSfog_PairsBefore( g[0], g[1] );
	stats.pairsAfter = count;
	if ( outStats != NULL )
	{
		*outStats = stats;
	}
	*outCount = count;
	*outPairs = ws->sfogPairs.data;
	return PD_STATUS_OK;
}
