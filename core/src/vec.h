// SPDX-License-Identifier: MIT
// Private: small inline vector/matrix helpers shared by every stage.
#pragma once

#include "polydepth/base.h"

#include <math.h>

typedef struct pdiMat33
{
	pdVec3 cx, cy, cz; // columns
} pdiMat33;

static inline pdVec3 pdiV3( double x, double y, double z )
{
	pdVec3 v = { x, y, z };
	return v;
}
static inline pdVec3 pdiAdd( pdVec3 a, pdVec3 b ) { return pdiV3( a.x + b.x, a.y + b.y, a.z + b.z ); }
static inline pdVec3 pdiSub( pdVec3 a, pdVec3 b ) { return pdiV3( a.x - b.x, a.y - b.y, a.z - b.z ); }
static inline pdVec3 pdiScale( pdVec3 a, double s ) { return pdiV3( a.x * s, a.y * s, a.z * s ); }
static inline pdVec3 pdiNeg( pdVec3 a ) { return pdiV3( -a.x, -a.y, -a.z ); }
static inline pdVec3 pdiMulAdd( pdVec3 a, double s, pdVec3 b ) { return pdiV3( a.x + s * b.x, a.y + s * b.y, a.z + s * b.z ); }
static inline double pdiDot( pdVec3 a, pdVec3 b ) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline pdVec3 pdiCross( pdVec3 a, pdVec3 b )
{
	return pdiV3( a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x );
}
static inline double pdiLengthSq( pdVec3 a ) { return pdiDot( a, a ); }

static inline double pdiLength( pdVec3 a ) { return sqrt( pdiDot( a, a ) ); }
static inline double pdiDistanceSq( pdVec3 a, pdVec3 b ) { return pdiLengthSq( pdiSub( a, b ) ); }
/// Min/max by comparison rather than fmin/fmax: gcc calls libm for those (NaN rules) in hot
/// loops, and every value reaching these is finite or an infinite box start. For equal operands
/// (including -0.0 and +0.0) the second operand is returned.
static inline double pdiMinD( double a, double b ) { return a < b ? a : b; }
static inline double pdiMaxD( double a, double b ) { return a > b ? a : b; }
/// Per component min/max; for equal components (-0.0 and +0.0 included) the first operand's is
/// returned: a box accumulated as lo = pdiMin3( lo, p ) keeps the earlier point's value on ties.
static inline pdVec3 pdiMin3( pdVec3 a, pdVec3 b ) { return pdiV3( pdiMinD( b.x, a.x ), pdiMinD( b.y, a.y ), pdiMinD( b.z, a.z ) ); }
static inline pdVec3 pdiMax3( pdVec3 a, pdVec3 b ) { return pdiV3( pdiMaxD( b.x, a.x ), pdiMaxD( b.y, a.y ), pdiMaxD( b.z, a.z ) ); }
static inline pdVec3 pdiLerp( pdVec3 a, pdVec3 b, double t ) { return pdiMulAdd( a, t, pdiSub( b, a ) ); }
static inline double pdiComponent( pdVec3 a, int axis ) { return axis == 0 ? a.x : ( axis == 1 ? a.y : a.z ); }

/// Unit vector, or the zero vector when the input is shorter than 1e-300.
static inline pdVec3 pdiNormalize( pdVec3 a )
{
	double len = pdiLength( a );
	return len > 1e-300 ? pdiScale( a, 1.0 / len ) : pdiV3( 0.0, 0.0, 0.0 );
}

static inline bool pdiIsFiniteVec( pdVec3 a ) { return isfinite( a.x ) && isfinite( a.y ) && isfinite( a.z ); }

static inline pdVec3 pdiMulMV( const pdiMat33* m, pdVec3 v )
{
	return pdiAdd( pdiAdd( pdiScale( m->cx, v.x ), pdiScale( m->cy, v.y ) ), pdiScale( m->cz, v.z ) );
}
/// m^T v
static inline pdVec3 pdiMulMTV( const pdiMat33* m, pdVec3 v ) { return pdiV3( pdiDot( m->cx, v ), pdiDot( m->cy, v ), pdiDot( m->cz, v ) ); }

static inline pdiMat33 pdiMat33FromQuat( pdQuat q )
{
	double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
	double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
	double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
	pdiMat33 m;
	m.cx = pdiV3( 1.0 - 2.0 * ( yy + zz ), 2.0 * ( xy + wz ), 2.0 * ( xz - wy ) );
	m.cy = pdiV3( 2.0 * ( xy - wz ), 1.0 - 2.0 * ( xx + zz ), 2.0 * ( yz + wx ) );
	m.cz = pdiV3( 2.0 * ( xz + wy ), 2.0 * ( yz - wx ), 1.0 - 2.0 * ( xx + yy ) );
	return m;
}

static inline pdQuat pdiQuatMul( pdQuat a, pdQuat b )
{
	pdQuat r;
	r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
	r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
	r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
	r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
	return r;
}
static inline pdQuat pdiQuatConj( pdQuat a )
{
	pdQuat r = { a.w, -a.x, -a.y, -a.z };
	return r;
}

/// A pose with its rotation matrix expanded (the form every query works with).
typedef struct pdiFrame
{
	pdiMat33 r;
	pdVec3 p;
} pdiFrame;

static inline pdVec3 pdiFrameApply( const pdiFrame* f, pdVec3 local ) { return pdiAdd( pdiMulMV( &f->r, local ), f->p ); }
static inline pdVec3 pdiFrameApplyInverse( const pdiFrame* f, pdVec3 world ) { return pdiMulMTV( &f->r, pdiSub( world, f->p ) ); }

/// Validates a public pose (finite, unit quaternion to 1e-4) and expands it. Returns
/// PD_STATUS_INVALID_POSE (or PD_STATUS_INVALID_ARGUMENT for NULL) on failure.
pdStatus pdiMakeFrame( const pdTransform* pose, pdiFrame* outFrame );
