// SPDX-License-Identifier: MIT
// Predefined paths (.ani): a frame count ("101f"), then per frame a label ("0f") and 12 numbers,
// a column-major rotation and a translation.
#include "model_reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Frame labels look like "12f".
static bool smpReadFrameLabel( smpTokenizer* t, long long* out, const char* what )
{
	if ( !smpNextToken( t ) )
	{
		return smpFailToken( t, what );
	}
	size_t n = strlen( t->token );
	if ( n < 2 || ( t->token[n - 1] != 'f' && t->token[n - 1] != 'F' ) )
	{
		return smpFailToken( t, what );
	}
	t->token[n - 1] = '\0';
	errno = 0;
	char* end = NULL;
	long long v = strtoll( t->token, &end, 10 );
	bool ok = end != t->token && *end == '\0' && errno != ERANGE;
	t->token[n - 1] = 'f';
	if ( !ok )
	{
		return smpFailToken( t, what );
	}
	*out = v;
	return true;
}

bool smpLoadPath( const char* path, smpPath* out, char* error, size_t errorSize )
{
	if ( error != NULL && errorSize > 0 )
	{
		error[0] = '\0';
	}
	if ( out == NULL )
	{
		smpSetError( error, errorSize, path, "no output path given" );
		return false;
	}
	memset( out, 0, sizeof( *out ) );
	size_t size = 0;
	char* data = smpReadNonEmptyFile( path, &size, error, errorSize );
	if ( data == NULL )
	{
		return false;
	}
	if ( memchr( data, '\0', size ) != NULL )
	{
		free( data );
		smpSetError( error, errorSize, path, "binary data in a text path file" );
		return false;
	}
	smpTokenizer t = { .data = data, .size = size, .line = 1, .path = path, .error = error, .errorSize = errorSize };
	bool ok = false;
	long long frames = 0;
	if ( smpReadFrameLabel( &t, &frames, "the frame count (like '101f')" ) &&
		 smpCheckCount( &t, frames, SMP_IO_MAX_FRAMES, "frame" ) )
	{
		long long remaining = (long long)( size - t.pos );
		if ( frames == 0 )
		{
			smpSetError( error, errorSize, path, "empty path (0 frames)" );
		}
		else if ( 26 * frames > remaining + 1 )
		{
			smpSetError( error, errorSize, path,
						 "truncated file: %lld frames need at least %lld more bytes, the file has %lld", frames,
						 26 * frames, remaining );
		}
		else
		{
			out->rotations = (double*)malloc( (size_t)frames * 9 * sizeof( double ) );
			out->translations = (double*)malloc( (size_t)frames * 3 * sizeof( double ) );
			ok = out->rotations != NULL && out->translations != NULL;
			if ( !ok )
			{
				smpSetError( error, errorSize, path, "out of memory for %lld frames", frames );
			}
			long long firstLabel = 0;
			for ( long long f = 0; f < frames && ok; ++f )
			{
				long long label = 0;
				ok = smpReadFrameLabel( &t, &label, "a frame label (like '0f')" );
				if ( ok && f == 0 )
				{
					firstLabel = label;
					if ( label != 0 && label != 1 )
					{
						smpSetError( error, errorSize, path,
									 "line %d: the first frame is labelled %lld, expected 0f or 1f", t.line, label );
						ok = false;
					}
				}
				else if ( ok && label != firstLabel + f )
				{
					smpSetError( error, errorSize, path, "line %d: frame %lld is labelled %lldf (frames out of order)",
								 t.line, f, label );
					ok = false;
				}
				double c[12];
				for ( int k = 0; k < 12 && ok; ++k )
				{
					ok = smpReadDouble( &t, c + k, k < 9 ? "a rotation entry" : "a translation entry" );
					if ( ok && !isfinite( c[k] ) )
					{
						smpSetError( error, errorSize, path, "line %d: frame %lld has a non-finite number", t.line, f );
						ok = false;
					}
				}
				if ( ok )
				{
					// The file is column-major (R00 R10 R20 R01 ...); store row-major.
					for ( int row = 0; row < 3; ++row )
					{
						for ( int col = 0; col < 3; ++col )
						{
							out->rotations[9 * f + 3 * row + col] = c[3 * col + row];
						}
					}
					out->translations[3 * f + 0] = c[9];
					out->translations[3 * f + 1] = c[10];
					out->translations[3 * f + 2] = c[11];
				}
			}
			if ( ok )
			{
				out->frameCount = (int)frames;
				ok = smpExpectEnd( &t, "the last frame" );
			}
		}
	}
	free( data );
	if ( !ok )
	{
		smpFreePath( out );
	}
	return ok;
}

void smpFreePath( smpPath* path )
{
	if ( path == NULL )
	{
		return;
	}
	free( path->rotations );
	free( path->translations );
	memset( path, 0, sizeof( *path ) );
}
