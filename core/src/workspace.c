// SPDX-License-Identifier: MIT
// The per-thread scratch arena handed to every query.
#include "workspace.h"

#include "core.h"

#include <string.h>

bool pdiBuffer_Reserve( pdiBuffer* buffer, size_t bytes, bool keepContents )
{
	if ( bytes <= buffer->capacity )
	{
		return true;
	}
	// Grow geometrically so a query that needs a little more each time still settles.
	size_t capacity = buffer->capacity < 256 ? 256 : buffer->capacity;
	while ( capacity < bytes )
	{
		capacity *= 2;
	}
	void* fresh = pdiAlloc( capacity );
	if ( fresh == NULL )
	{
		return false;
	}
	if ( keepContents && buffer->data != NULL )
	{
		memcpy( fresh, buffer->data, buffer->capacity );
	}
	pdiFree( buffer->data, buffer->capacity );
	buffer->data = fresh;
	buffer->capacity = capacity;
	return true;
}

static void pdiBuffer_Release( pdiBuffer* buffer )
{
	pdiFree( buffer->data, buffer->capacity );
	buffer->data = NULL;
	buffer->capacity = 0;
}

#define PDI_WORKSPACE_BUFFERS( X ) \
	X( stack ) X( pairs ) X( features ) X( scratch ) X( pdiFeatures ) X( pdiPlanes ) X( pdiStarts ) X( pdiScratch ) \
		X( ballGridStarts ) X( ballGridItems ) X( sfogPairs ) X( sfogScratch )

pdWorkspace* pdiCreateWorkspace( void )
{
	pdWorkspace* ws = pdiAllocZeroed( sizeof( pdWorkspace ) );
	if ( ws != NULL )
	{
		ws->magic = PDI_WORKSPACE_MAGIC;
	}
	return ws;
}

pdWorkspace* pdCreateWorkspace( pdError* outError )
{
	pdWorkspace* ws = pdiCreateWorkspace();
	pdiSetError( outError, ws != NULL ? PD_STATUS_OK : PD_STATUS_OUT_OF_MEMORY,
				 ws != NULL ? "" : "out of memory creating a workspace" );
	return ws;
}

void pdiDestroyWorkspace( pdWorkspace* ws )
{
	if ( !pdiIsValidWorkspace( ws ) )
	{
		return;
	}
#define PDI_RELEASE( name ) pdiBuffer_Release( &ws->name );
	PDI_WORKSPACE_BUFFERS( PDI_RELEASE )
#undef PDI_RELEASE
	ws->magic = 0;
	pdiFree( ws, sizeof( pdWorkspace ) );
}

void pdDestroyWorkspace( pdWorkspace* ws )
{
	pdiDestroyWorkspace( ws );
}

size_t pdWorkspace_GetBytes( const pdWorkspace* ws )
{
	if ( !pdiIsValidWorkspace( ws ) )
	{
		return 0;
	}
	size_t total = sizeof( pdWorkspace );
#define PDI_SUM( name ) total += ws->name.capacity;
	PDI_WORKSPACE_BUFFERS( PDI_SUM )
#undef PDI_SUM
	return total;
}
