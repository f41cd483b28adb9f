// SPDX-License-Identifier: MIT
// Private: small inline vector/matrix helpers shared by every stage.
#pragma once

#include "polydepth/base.h"

#include <math.h>

typedef struct pdMat33
{
	pdVec3 cx, cy, cz; // columns
} pdMat33;

static inline pdVec3 pdV3( double x, double y, double z )
{
	pdVec3 v = { x, y, z };
	return v;
}
static inline pdVec3 pdAdd( pdVec3 a, pdVec3 b ) { return pdV3( a.x + b.x, a.y + b.y, a.z + b.z ); }
static inline pdVec3 pdSub( pdVec3 a, pdVec3 b ) { return pdV3( a.x - b.x, a.y - b.y, a.z - b.z ); }
static inline pdVec3 pdScale( pdVec3 a, double s ) { return pdV3( a.x * s, a.y * s, a.z * s ); }
static inline pdVec3 pdNeg( pdVec3 a ) { return pdV3( -a.x, -a.y, -a.z ); }
static inline pdVec3 pdMulAdd( pdVec3 a, double s, pdVec3 b ) { return pdV3( a.x + s * b.x, a.y + s * b.y, a.z + s * b.z ); }
static inline double pdDot( pdVec3 a, pdVec3 b ) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline pdVec3 pdCross( pdVec3 a, pdVec3 b )
{
	return pdV3( a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x );
}
static inline double pdLengthSq( pdVec3 a ) { return pdDot( a, a ); }

static inline double pdLength( pdVec3 a ) { return sqrt( pdDot( a, a ) ); }
static inline double pdDistanceSq( pdVec3 a, pdVec3 b ) { return pdLengthSq( pdSub( a, b ) ); }
/// Min/max by comparison rather than fmin/fmax: gcc calls libm for those (NaN rules) in hot
/// loops, and every value reaching these is finite or an infinite box start. For equal operands
/// (including -0.0 and +0.0) the second operand is returned.
static inline double pdMinD( double a, double b ) { return a < b ? a : b; }
static inline double pdMaxD( double a, double b ) { return a > b ? a : b; }
/// Per component min/max; for equal components (-0.0 and +0.0 included) the first operand's is
/// returned: a box accumulated as lo = pdMin3( lo, p ) keeps the earlier point's value on ties.
static inline pdVec3 pdMin3( pdVec3 a, pdVec3 b ) { return pdV3( pdMinD( b.x, a.x ), pdMinD( b.y, a.y ), pdMinD( b.z, a.z ) ); }
static inline pdVec3 pdMax3( pdVec3 a, pdVec3 b ) { return pdV3( pdMaxD( b.x, a.x ), pdMaxD( b.y, a.y ), pdMaxD( b.z, a.z ) ); }
static inline pdVec3 pdLerp( pdVec3 a, pdVec3 b, double t ) { return pdMulAdd( a, t, pdSub( b, a ) ); }
static inline double pdComponent( pdVec3 a, int axis ) { return axis == 0 ? a.x : ( axis == 1 ? a.y : a.z ); }

/// Unit vector, or the zero vector when the input is shorter than 1e-300.
static inline pdVec3 pdNormalize( pdVec3 a )
{
	double len = pdLength( a );
	return len > 1e-300 ? pdScale( a, 1.0 / len ) : pdV3( 0.0, 0.0, 0.0 );
}

static inline bool pdIsFiniteVec( pdVec3 a ) { return isfinite( a.x ) && isfinite( a.y ) && isfinite( a.z ); }

static inline pdVec3 pdMulMV( const pdMat33* m, pdVec3 v )
{
	return pdAdd( pdAdd( pdScale( m->cx, v.x ), pdScale( m->cy, v.y ) ), pdScale( m->cz, v.z ) );
}
/// m^T v
static inline pdVec3 pdMulMTV( const pdMat33* m, pdVec3 v ) { return pdV3( pdDot( m->cx, v ), pdDot( m->cy, v ), pdDot( m->cz, v ) ); }

static inline pdMat33 pdMat33FromQuat( pdQuat q )
{
	double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
	double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
	double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
	pdMat33 m;
	m.cx = pdV3( 1.0 - 2.0 * ( yy + zz ), 2.0 * ( xy + wz ), 2.0 * ( xz - wy ) );
	m.cy = pdV3( 2.0 * ( xy - wz ), 1.0 - 2.0 * ( xx + zz ), 2.0 * ( yz + wx ) );
	m.cz = pdV3( 2.0 * ( xz + wy ), 2.0 * ( yz - wx ), 1.0 - 2.0 * ( xx + yy ) );
	return m;
}

static inline pdQuat pdQuatMul( pdQuat a, pdQuat b )
{
	pdQuat r;
	r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
	r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
	r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
	r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
	return r;
}
static inline pdQuat pdQuatConj( pdQuat a )
{
	pdQuat r = { a.w, -a.x, -a.y, -a.z };
	return r;
}

/// A pose with its rotation matrix expanded (the form every query works with).
typedef struct pdFrame
{
	pdMat33 r;
	pdVec3 p;
} pdFrame;

static inline pdVec3 pdFrameApply( const pdFrame* f, pdVec3 local ) { return pdAdd( pdMulMV( &f->r, local ), f->p ); }
static inline pdVec3 pdFrameApplyInverse( const pdFrame* f, pdVec3 world ) { return pdMulMTV( &f->r, pdSub( world, f->p ) ); }

/// Validates a public pose (finite, unit quaternion to 1e-4) and expands it. Returns
/// PD_STATUS_INVALID_POSE (or PD_STATUS_INVALID_ARGUMENT for NULL) on failure.
pdStatus pdMakeFrame( const pdTransform* pose, pdFrame* outFrame );
