// SPDX-License-Identifier: MIT
// The per-thread scratch arena handed to every query.
#include "workspace.h"

#include "core.h"

#include <string.h>

bool pdBuffer_Reserve( pdBuffer* buffer, size_t bytes, bool keepContents )
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
	void* fresh = pdAlloc( capacity );
	if ( fresh == NULL )
	{
		return false;
	}
	if ( keepContents && buffer->data != NULL )
	{
		memcpy( fresh, buffer->data, buffer->capacity );
	}
	pdFree( buffer->data, buffer->capacity );
	buffer->data = fresh;
	buffer->capacity = capacity;
	return true;
}

static void pdBuffer_Release( pdBuffer* buffer )
{
	pdFree( buffer->data, buffer->capacity );
	buffer->data = NULL;
	buffer->capacity = 0;
}

#define PD_WORKSPACE_BUFFERS( X ) \
	X( stack ) X( pairs ) X( features ) X( scratch ) X( pdFeatures ) X( pdPlanes ) X( pdStarts ) X( pdScratch ) \
		X( ballGridStarts ) X( ballGridItems ) X( sfogPairs ) X( sfogScratch )

pdWorkspace* pdCreateWorkspace( void )
{
	pdWorkspace* ws = pdAllocZeroed( sizeof( pdWorkspace ) );
	if ( ws != NULL )
	{
		ws->magic = PD_WORKSPACE_MAGIC;
	}
	return ws;
}

void pdDestroyWorkspace( pdWorkspace* ws )
{
	if ( !pdIsValidWorkspace( ws ) )
	{
		return;
	}
#define PD_RELEASE( name ) pdBuffer_Release( &ws->name );
	PD_WORKSPACE_BUFFERS( PD_RELEASE )
#undef PD_RELEASE
	ws->magic = 0;
	pdFree( ws, sizeof( pdWorkspace ) );
}

size_t pdWorkspace_GetBytes( const pdWorkspace* ws )
{
	if ( !pdIsValidWorkspace( ws ) )
	{
		return 0;
	}
	size_t total = sizeof( pdWorkspace );
#define PD_SUM( name ) total += ws->name.capacity;
	PD_WORKSPACE_BUFFERS( PD_SUM )
#undef PD_SUM
	return total;
}
