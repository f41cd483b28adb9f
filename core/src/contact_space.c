// SPDX-License-Identifier: MIT
// Contact features -> contact planes in configuration space.
#include "contact_space.h"

double pdiContactPlaneOffset( const pdContactFeature* feature, pdVec3 contactTranslation )
{
	// A point pA of A at x_c sits at pA - x_c + x when A is at x; the pair stays apart while
	// n . (pA - x_c + x - pB) >= 0.
	pdVec3 p = pdiAdd( contactTranslation, pdiSub( feature->pointB, feature->pointA ) );
	return pdiDot( feature->normal, p );
}

int pdiBuildContactPlanes( const pdContactFeature* features, int featureCount, pdVec3 contactTranslation, int maxPlanes,
						  pdiContactPlane* outPlanes, int* outMerged, int* outTruncated )
{
	int merged = 0;
	int count = 0;
	for ( int i = 0; i < featureCount; ++i )
	{
		const pdContactFeature* f = features + i;
		if ( !pdiIsFiniteVec( f->normal ) || !pdiIsFiniteVec( f->pointA ) || !pdiIsFiniteVec( f->pointB ) )
		{
			continue;
		}
		double len = pdiLength( f->normal );
		if ( !( len > 0.5 ) )
		{
			continue;
		}
		pdVec3 n = pdiScale( f->normal, 1.0 / len );
		pdContactFeature unit = *f;
		unit.normal = n;
		double offset = pdiContactPlaneOffset( &unit, contactTranslation );
		if ( !isfinite( offset ) )
		{
			continue;
		}

		// Same normal as a kept plane: keep only the most constraining offset (the largest).
		int same = -1;
		for ( int j = 0; j < count; ++j )
		{
			if ( 1.0 - pdiDot( outPlanes[j].normal, n ) < PDI_PLANE_DEDUP_TOLERANCE )
			{
				same = j;
				break;
			}
		}
		if ( same >= 0 )
		{
			merged += 1;
			if ( offset > outPlanes[same].offset )
			{
				outPlanes[same].offset = offset;
				outPlanes[same].source = i;
			}
			continue;
		}
		outPlanes[count].normal = n;
		outPlanes[count].offset = offset;
		outPlanes[count].source = i;
		count += 1;
	}

	// Insertion sort by offset, largest first (counts are small); ties by source for determinism.
	for ( int i = 1; i < count; ++i )
	{
		pdiContactPlane key = outPlanes[i];
		int j = i - 1;
		while ( j >= 0 && ( outPlanes[j].offset < key.offset ||
							( outPlanes[j].offset == key.offset && outPlanes[j].source > key.source ) ) )
		{
			outPlanes[j + 1] = outPlanes[j];
			j -= 1;
		}
		outPlanes[j + 1] = key;
	}

	int truncated = 0;
	if ( maxPlanes >= 0 && count > maxPlanes )
	{
		truncated = count - maxPlanes;
		count = maxPlanes;
	}
	if ( outMerged != NULL )
	{
		*outMerged = merged;
	}
	if ( outTruncated != NULL )
	{
		*outTruncated = truncated;
	}
	return count;
}
