// SPDX-License-Identifier: MIT
// Shared by the free-configuration tests (clearance, start checks, start candidates): a mesh
// made from a generated soup, an independent collision check, and a start context.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

extern "C"
{
#include "initial_config.h"
#include "proximity.h"
#include "shapes.h"
}

struct Mesh
{
	smpSoup soup = {};
	pdMesh* mesh = nullptr;
	~Mesh()
	{
		pdDestroyMesh( mesh );
		smpFreeSoup( &soup );
	}
	bool Make()
	{
		mesh = smpSoupCreateMesh( &soup, nullptr );
		return mesh != nullptr;
	}
};

inline bool CollidesIndependently( const pdMesh* a, pdTransform pa, pdVec3 x, const pdMesh* b, pdTransform pb,
								   pdWorkspace* ws )
{
	pa.p = pdiAdd( pa.p, x );
	pdCollideResult r;
	pdCollideDef def = pdDefaultCollideDef();
	EXPECT_GE( pdCollide( a, &pa, b, &pb, &def, ws, &r ), 0 );
	return r.colliding;
}

inline pdiStartContext Context( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb,
							   pdWorkspace* ws )
{
	pdiStartContext ctx = {};
	ctx.meshA = a;
	ctx.meshB = b;
	EXPECT_EQ( pdiMakeFrame( &pa, &ctx.frameA ), PD_STATUS_OK );
	EXPECT_EQ( pdiMakeFrame( &pb, &ctx.frameB ), PD_STATUS_OK );
	ctx.rotationA = pa.q;
	ctx.rotationB = pb.q;
	ctx.containment = true;
	ctx.tolerance = 1e-4 * std::fmin( a->diagonal, b->diagonal );
	ctx.ws = ws;
	return ctx;
}
