// SPDX-License-Identifier: MIT
// Convex hull: incremental, farthest points first. A point within eps of the current hull
// (eps relative to the bounding-box diagonal) counts as on it, which handles duplicate and
// coplanar points; the visible region is grown from the most visible face through visible
// neighbours only, so it is connected, and its horizon is checked to be one simple cycle.
// Random convex polyhedra are hulls of random points. Hand-written rather than Bullet's
// btConvexHullComputer because samples/common is C and the core tests that use it build without Bullet.
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct smpHullFace
{
	int v[3];
	int nb[3]; // face across edge k (v[k] -> v[k+1])
	double n[3];
	double d;
	int alive;
	int mark;
} smpHullFace;

typedef struct smpHull
{
	const double* p;
	smpHullFace* faces;
	int faceCount;
	int faceCapacity;
	int aliveCount;
	bool failed;
} smpHull;

static void smpHull_SetPlane( smpHull* h, smpHullFace* f )
{
	const double* a = h->p + 3 * f->v[0];
	const double* b = h->p + 3 * f->v[1];
	const double* c = h->p + 3 * f->v[2];
	double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
	double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
	double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
	double len = sqrt( n[0] * n[0] + n[1] * n[1] + n[2] * n[2] );
	if ( len > 0.0 )
	{
		n[0] /= len;
		n[1] /= len;
		n[2] /= len;
	}
	else
	{
		n[0] = n[1] = n[2] = 0.0;
	}
	f->n[0] = n[0];
	f->n[1] = n[1];
	f->n[2] = n[2];
	f->d = n[0] * a[0] + n[1] * a[1] + n[2] * a[2];
}

static double smpHull_Distance( const smpHull* h, const smpHullFace* f, int point )
{
	const double* q = h->p + 3 * point;
	return f->n[0] * q[0] + f->n[1] * q[1] + f->n[2] * q[2] - f->d;
}

static int smpHull_AddFace( smpHull* h, int a, int b, int c )
{
	if ( h->faceCount == h->faceCapacity )
	{
		int cap = h->faceCapacity < 64 ? 64 : 2 * h->faceCapacity;
		smpHullFace* f = (smpHullFace*)realloc( h->faces, (size_t)cap * sizeof( smpHullFace ) );
		if ( f == NULL )
		{
			h->failed = true;
			return -1;
		}
		h->faces = f;
		h->faceCapacity = cap;
	}
	smpHullFace* f = h->faces + h->faceCount;
	f->v[0] = a;
	f->v[1] = b;
	f->v[2] = c;
	f->nb[0] = f->nb[1] = f->nb[2] = -1;
	f->alive = 1;
	f->mark = -1;
	smpHull_SetPlane( h, f );
	h->aliveCount++;
	return h->faceCount++;
}

// Drops dead faces and renumbers neighbour links.
static void smpHull_Compact( smpHull* h, int* remap )
{
	int count = 0;
	for ( int i = 0; i < h->faceCount; ++i )
	{
		remap[i] = h->faces[i].alive ? count++ : -1;
	}
	for ( int i = 0; i < h->faceCount; ++i )
	{
		if ( h->faces[i].alive )
		{
			smpHullFace f = h->faces[i];
			for ( int k = 0; k < 3; ++k )
			{
				f.nb[k] = remap[f.nb[k]];
			}
			h->faces[remap[i]] = f;
		}
	}
	h->faceCount = count;
}

typedef struct smpHullOrder
{
	double key;
	int index;
} smpHullOrder;

static int smpCompareHullOrder( const void* pa, const void* pb )
{
	const smpHullOrder* a = (const smpHullOrder*)pa;
	const smpHullOrder* b = (const smpHullOrder*)pb;
	if ( a->key != b->key )
	{
		return a->key > b->key ? -1 : 1;
	}
	return a->index < b->index ? -1 : ( a->index > b->index ? 1 : 0 );
}

static double smpDist2( const double* a, const double* b )
{
	double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	return dx * dx + dy * dy + dz * dz;
}

// Bounding box of the points; false on a non-finite or huge (> 1e150) coordinate.
static bool smpHull_Bounds( const double* points, int pointCount, double lo[3], double hi[3] )
{
	for ( int a = 0; a < 3; ++a )
	{
		lo[a] = hi[a] = points[a];
	}
	for ( int i = 0; i < pointCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			double c = points[3 * i + a];
			if ( !isfinite( c ) || fabs( c ) > 1e150 )
			{
				return false;
			}
			lo[a] = c < lo[a] ? c : lo[a];
			hi[a] = c > hi[a] ? c : hi[a];
		}
	}
	return true;
}

// Initial tetrahedron from extreme points: the lowest point (x, then y, then z), the point
// farthest from it, the point farthest from their line and the point farthest from their
// plane, as four outward faces with their neighbour links. False when the points are within eps
// of a point, a line or a plane, or on out of memory.
static bool smpHull_Seed( smpHull* h, int pointCount, double eps, int outSeed[4] )
{
	const double* points = h->p;
	int i0 = 0;
	for ( int i = 1; i < pointCount; ++i )
	{
		const double* q = points + 3 * i;
		const double* r = points + 3 * i0;
		if ( q[0] < r[0] || ( q[0] == r[0] && ( q[1] < r[1] || ( q[1] == r[1] && q[2] < r[2] ) ) ) )
		{
			i0 = i;
		}
	}
	int i1 = -1;
	double best = 0.0;
	for ( int i = 0; i < pointCount; ++i )
	{
		double d = smpDist2( points + 3 * i, points + 3 * i0 );
		if ( d > best )
		{
			best = d;
			i1 = i;
		}
	}
	if ( i1 < 0 || sqrt( best ) <= eps )
	{
		return false;
	}
	const double* p0 = points + 3 * i0;
	const double* p1 = points + 3 * i1;
	double axis[3] = { p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2] };
	double axisLen = sqrt( axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2] );
	axis[0] /= axisLen;
	axis[1] /= axisLen;
	axis[2] /= axisLen;
	int i2 = -1;
	best = 0.0;
	for ( int i = 0; i < pointCount; ++i )
	{
		const double* q = points + 3 * i;
		double w[3] = { q[0] - p0[0], q[1] - p0[1], q[2] - p0[2] };
		double c[3] = { w[1] * axis[2] - w[2] * axis[1], w[2] * axis[0] - w[0] * axis[2],
						w[0] * axis[1] - w[1] * axis[0] };
		double d = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
		if ( d > best )
		{
			best = d;
			i2 = i;
		}
	}
	if ( i2 < 0 || sqrt( best ) <= eps )
	{
		return false;
	}
	smpHullFace probe = { .v = { i0, i1, i2 } };
	smpHull_SetPlane( h, &probe );
	int i3 = -1;
	best = 0.0;
	for ( int i = 0; i < pointCount; ++i )
	{
		double d = fabs( smpHull_Distance( h, &probe, i ) );
		if ( d > best )
		{
			best = d;
			i3 = i;
		}
	}
	if ( i3 < 0 || best <= eps )
	{
		return false;
	}
	if ( smpHull_Distance( h, &probe, i3 ) > 0.0 )
	{
		int t = i1;
		i1 = i2;
		i2 = t;
	}
	// Now i3 is below face (i0, i1, i2).
	smpHull_AddFace( h, i0, i1, i2 );
	smpHull_AddFace( h, i0, i3, i1 );
	smpHull_AddFace( h, i1, i3, i2 );
	smpHull_AddFace( h, i2, i3, i0 );
	if ( h->failed )
	{
		return false;
	}
	for ( int f = 0; f < 4; ++f )
	{
		for ( int k = 0; k < 3; ++k )
		{
			int a = h->faces[f].v[k], b = h->faces[f].v[( k + 1 ) % 3];
			for ( int g = 0; g < 4; ++g )
			{
				for ( int m = 0; m < 3 && g != f; ++m )
				{
					if ( h->faces[g].v[m] == b && h->faces[g].v[( m + 1 ) % 3] == a )
					{
						h->faces[f].nb[k] = g;
					}
				}
			}
		}
	}
	outSeed[0] = i0;
	outSeed[1] = i1;
	outSeed[2] = i2;
	outSeed[3] = i3;
	return true;
}

// Scratch arrays of the insertions, sized for capacity faces.
typedef struct smpHullScratch
{
	int* stack;
	int* horizon; // triples: visible face, edge index, new face
	int* remap;   // also the list of visible faces
	int capacity;
} smpHullScratch;

// Grows the scratch arrays to room for the faces plus 16; false (and h->failed) when out of memory.
static bool smpHullScratch_Reserve( smpHullScratch* s, smpHull* h )
{
	if ( s->capacity >= h->faceCount + 16 )
	{
		return true;
	}
	int cap = 2 * ( h->faceCount + 16 );
	int* st = (int*)realloc( s->stack, (size_t)cap * sizeof( int ) );
	if ( st != NULL )
	{
		s->stack = st;
	}
	int* hz = (int*)realloc( s->horizon, (size_t)cap * 9 * sizeof( int ) ); // up to 3 edges per face
	if ( hz != NULL )
	{
		s->horizon = hz;
	}
	int* rm = (int*)realloc( s->remap, (size_t)cap * sizeof( int ) );
	if ( rm != NULL )
	{
		s->remap = rm;
	}
	if ( st == NULL || hz == NULL || rm == NULL )
	{
		h->failed = true;
		return false;
	}
	s->capacity = cap;
	return true;
}

// The alive face the point is farthest above, by more than eps; -1 when it is inside or on the hull.
static int smpHull_TopFace( const smpHull* h, int point, double eps )
{
	int top = -1;
	double topDist = eps;
	for ( int f = 0; f < h->faceCount; ++f )
	{
		if ( h->faces[f].alive )
		{
			double d = smpHull_Distance( h, h->faces + f, point );
			if ( d > topDist )
			{
				topDist = d;
				top = f;
			}
		}
	}
	return top;
}

// Grows the visible region from the top face through neighbours the point is more than eps above,
// marking each with step; writes the faces into visible and returns their count.
static int smpHull_GrowVisible( smpHull* h, int top, int point, int step, double eps, int* stack, int* visible )
{
	int visibleCount = 0;
	int stackSize = 0;
	stack[stackSize++] = top;
	h->faces[top].mark = step;
	while ( stackSize > 0 )
	{
		int f = stack[--stackSize];
		visible[visibleCount++] = f;
		for ( int k = 0; k < 3; ++k )
		{
			int g = h->faces[f].nb[k];
			if ( g >= 0 && h->faces[g].mark != step && smpHull_Distance( h, h->faces + g, point ) > eps )
			{
				h->faces[g].mark = step;
				stack[stackSize++] = g;
			}
		}
	}
	return visibleCount;
}

// Horizon edges: visible face edges whose neighbour is not visible, as triples (face, edge, -1),
// with startOf[a] the edge that starts at vertex a. Returns their count; *outSimple tells whether
// they form one simple cycle (no vertex starts two edges, one loop through all of them).
static int smpHull_Horizon( const smpHull* h, const int* visible, int visibleCount, int step, int* horizon,
							int* startOf, bool* outSimple )
{
	int horizonCount = 0;
	bool simple = true;
	for ( int i = 0; i < visibleCount && simple; ++i )
	{
		int f = visible[i];
		for ( int k = 0; k < 3; ++k )
		{
			int g = h->faces[f].nb[k];
			if ( h->faces[g].mark != step )
			{
				int a = h->faces[f].v[k];
				if ( startOf[a] >= 0 )
				{
					simple = false;
					break;
				}
				startOf[a] = horizonCount;
				horizon[3 * horizonCount + 0] = f;
				horizon[3 * horizonCount + 1] = k;
				horizon[3 * horizonCount + 2] = -1;
				++horizonCount;
			}
		}
	}
	if ( simple && horizonCount >= 3 )
	{
		// One cycle through all horizon edges?
		int e = 0;
		int steps = 0;
		do
		{
			int f = horizon[3 * e];
			int k = horizon[3 * e + 1];
			int b = h->faces[f].v[( k + 1 ) % 3];
			e = startOf[b];
			++steps;
		} while ( e > 0 && steps <= horizonCount );
		simple = e == 0 && steps == horizonCount;
	}
	else
	{
		simple = false;
	}
	*outSimple = simple;
	return horizonCount;
}

// Replaces the visible faces by a cone from the point to the horizon and links the cone's faces
// to each other and to the faces outside; stops on out of memory (h->failed).
static void smpHull_AddCone( smpHull* h, int* horizon, int horizonCount, const int* startOf, int point )
{
	for ( int i = 0; i < horizonCount; ++i )
	{
		int f = horizon[3 * i];
		int k = horizon[3 * i + 1];
		int a = h->faces[f].v[k];
		int b = h->faces[f].v[( k + 1 ) % 3];
		int outside = h->faces[f].nb[k];
		int nf = smpHull_AddFace( h, a, b, point );
		if ( nf < 0 )
		{
			break;
		}
		horizon[3 * i + 2] = nf;
		h->faces[nf].nb[0] = outside;
		for ( int m = 0; m < 3; ++m )
		{
			if ( h->faces[outside].nb[m] == f )
			{
				h->faces[outside].nb[m] = nf;
			}
		}
	}
	if ( h->failed )
	{
		return;
	}
	for ( int i = 0; i < horizonCount; ++i )
	{
		int f = horizon[3 * i];
		int k = horizon[3 * i + 1];
		int b = h->faces[f].v[( k + 1 ) % 3];
		int nf = horizon[3 * i + 2];
		int next = horizon[3 * startOf[b] + 2];
		h->faces[nf].nb[1] = next;
		h->faces[next].nb[2] = nf;
	}
}

// Adds one point to the hull (step marks the faces it sees); false when out of memory.
static bool smpHull_Insert( smpHull* h, smpHullScratch* s, int* startOf, int point, int step, double eps )
{
	int top = smpHull_TopFace( h, point, eps );
	if ( top < 0 )
	{
		return true; // inside or on the hull
	}
	if ( !smpHullScratch_Reserve( s, h ) )
	{
		return false;
	}
	int* visible = s->remap;
	int visibleCount = smpHull_GrowVisible( h, top, point, step, eps, s->stack, visible );
	bool simple = true;
	int horizonCount = smpHull_Horizon( h, visible, visibleCount, step, s->horizon, startOf, &simple );
	if ( !simple )
	{
		// Numerically inconsistent visibility (rare, near-degenerate input): leave the hull
		// as it is; the point is within a few eps of it.
		for ( int i = 0; i < horizonCount; ++i )
		{
			startOf[h->faces[s->horizon[3 * i]].v[s->horizon[3 * i + 1]]] = -1;
		}
		return true;
	}
	smpHull_AddCone( h, s->horizon, horizonCount, startOf, point );
	if ( h->failed )
	{
		return false;
	}
	for ( int i = 0; i < horizonCount; ++i )
	{
		startOf[h->faces[s->horizon[3 * i]].v[s->horizon[3 * i + 1]]] = -1;
	}
	for ( int i = 0; i < visibleCount; ++i )
	{
		h->faces[visible[i]].alive = 0;
		h->aliveCount--;
	}
	if ( h->faceCount - h->aliveCount > h->aliveCount + 256 && h->faceCount <= s->capacity )
	{
		smpHull_Compact( h, s->remap );
	}
	return true;
}

// Emits the alive faces with compact vertex numbering (first use order); startOf is all -1 and
// becomes the vertex map.
static bool smpHull_Emit( const smpHull* h, int* startOf, smpSoup* out )
{
	const double* points = h->p;
	smpSoupBuilder b = { 0 };
	if ( !h->failed && startOf != NULL )
	{
		smpBuilder_Reserve( &b, h->aliveCount / 2 + 2, h->aliveCount );
		for ( int f = 0; f < h->faceCount && !b.failed; ++f )
		{
			if ( !h->faces[f].alive )
			{
				continue;
			}
			int v[3];
			for ( int k = 0; k < 3; ++k )
			{
				int src = h->faces[f].v[k];
				if ( startOf[src] < 0 )
				{
					startOf[src] =
						smpBuilder_AddVertex( &b, points[3 * src], points[3 * src + 1], points[3 * src + 2] );
				}
				v[k] = startOf[src];
			}
			smpBuilder_AddTriangle( &b, v[0], v[1], v[2] );
		}
	}
	else
	{
		b.failed = true;
	}
	return smpBuilder_Finish( &b, out );
}

bool smpMakeConvexHull( const double* points, int pointCount, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( points == NULL || pointCount < 4 || pointCount > ( 1 << 24 ) )
	{
		return false;
	}
	double lo[3], hi[3];
	if ( !smpHull_Bounds( points, pointCount, lo, hi ) )
	{
		return false;
	}
	double diagonal = sqrt( smpDist2( lo, hi ) );
	if ( !( diagonal > 0.0 ) )
	{
		return false;
	}
	const double eps = 1e-8 * diagonal;

	smpHull h = { 0 };
	h.p = points;
	int seed[4];
	if ( !smpHull_Seed( &h, pointCount, eps, seed ) )
	{
		free( h.faces );
		return false;
	}

	smpHullOrder* order = (smpHullOrder*)malloc( (size_t)pointCount * sizeof( smpHullOrder ) );
	int* startOf = (int*)malloc( (size_t)pointCount * sizeof( int ) );
	if ( order == NULL || startOf == NULL )
	{
		h.failed = true;
	}
	// Farthest from the box centre first: extreme points come early, so points that end up
	// inside or on a face are rarely inserted and later buried.
	double centre[3] = { 0.5 * ( lo[0] + hi[0] ), 0.5 * ( lo[1] + hi[1] ), 0.5 * ( lo[2] + hi[2] ) };
	int orderCount = 0;
	for ( int i = 0; i < pointCount && !h.failed; ++i )
	{
		startOf[i] = -1;
		if ( i != seed[0] && i != seed[1] && i != seed[2] && i != seed[3] )
		{
			order[orderCount].key = smpDist2( points + 3 * i, centre );
			order[orderCount].index = i;
			++orderCount;
		}
	}
	if ( !h.failed )
	{
		qsort( order, (size_t)orderCount, sizeof( smpHullOrder ), smpCompareHullOrder );
	}

	smpHullScratch scratch = { 0 };
	for ( int step = 0; step < orderCount && !h.failed; ++step )
	{
		if ( !smpHull_Insert( &h, &scratch, startOf, order[step].index, step, eps ) )
		{
			break;
		}
	}
	free( order );
	free( scratch.stack );
	free( scratch.horizon );
	free( scratch.remap );

	bool ok = smpHull_Emit( &h, startOf, out );
	free( startOf );
	free( h.faces );
	return ok;
}

static uint64_t smpNextRandom( uint64_t* state )
{
	// splitmix64: deterministic across platforms.
	uint64_t z = ( *state += 0x9E3779B97F4A7C15ull );
	z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

static double smpRandomUnit( uint64_t* state )
{
	return (double)( smpNextRandom( state ) >> 11 ) * ( 1.0 / 9007199254740992.0 );
}

bool smpMakeRandomConvex( int pointCount, unsigned seed, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( pointCount < 4 || pointCount > ( 1 << 22 ) )
	{
		return false;
	}
	double* points = (double*)malloc( (size_t)pointCount * 3 * sizeof( double ) );
	if ( points == NULL )
	{
		return false;
	}
	uint64_t state = 0x5DEECE66Dull ^ (uint64_t)seed;
	for ( int i = 0; i < pointCount; ++i )
	{
		// Direction by rejection from the cube (capped), radius in [0.9, 1].
		double d[3] = { 1.0, 0.0, 0.0 };
		for ( int attempt = 0; attempt < 64; ++attempt )
		{
			double c[3] = { 2.0 * smpRandomUnit( &state ) - 1.0, 2.0 * smpRandomUnit( &state ) - 1.0,
							2.0 * smpRandomUnit( &state ) - 1.0 };
			double l2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
			if ( l2 > 1e-6 && l2 <= 1.0 )
			{
				double l = sqrt( l2 );
				d[0] = c[0] / l;
				d[1] = c[1] / l;
				d[2] = c[2] / l;
				break;
			}
		}
		double r = 0.9 + 0.1 * smpRandomUnit( &state );
		points[3 * i + 0] = r * d[0];
		points[3 * i + 1] = r * d[1];
		points[3 * i + 2] = r * d[2];
	}
	bool ok = smpMakeConvexHull( points, pointCount, out );
	free( points );
	return ok;
}
