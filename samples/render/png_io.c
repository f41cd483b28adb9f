// SPDX-License-Identifier: MIT
// PNG files through libpng's simplified API (RGBA, 8 bits per channel, top row first).
#include "render.h"

#include <png.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool smpWritePng( const char* path, const uint8_t* rgba, int width, int height, char* error, size_t errorSize )
{
	png_image image;
	memset( &image, 0, sizeof( image ) );
	image.version = PNG_IMAGE_VERSION;
	image.width = (png_uint_32)width;
	image.height = (png_uint_32)height;
	image.format = PNG_FORMAT_RGBA;
	if ( path == NULL || rgba == NULL || width < 1 || height < 1 )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "bad image" );
		return false;
	}
	if ( !png_image_write_to_file( &image, path, 0, rgba, (png_int_32)width * 4, NULL ) )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "%s: cannot write PNG (%s)", path, image.message );
		return false;
	}
	return true;
}

bool smpReadPng( const char* path, uint8_t** outRgba, int* outWidth, int* outHeight, char* error, size_t errorSize )
{
	*outRgba = NULL;
	*outWidth = 0;
	*outHeight = 0;
	png_image image;
	memset( &image, 0, sizeof( image ) );
	image.version = PNG_IMAGE_VERSION;
	if ( path == NULL || !png_image_begin_read_from_file( &image, path ) )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "%s: cannot read PNG (%s)", path != NULL ? path : "(null)", image.message );
		return false;
	}
	image.format = PNG_FORMAT_RGBA;
	if ( image.width == 0 || image.height == 0 || image.width > 16384 || image.height > 16384 )
	{
		png_image_free( &image );
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "%s: unsupported image size", path );
		return false;
	}
	uint8_t* buffer = (uint8_t*)malloc( PNG_IMAGE_SIZE( image ) );
	if ( buffer == NULL || !png_image_finish_read( &image, NULL, buffer, 0, NULL ) )
	{
		free( buffer );
		png_image_free( &image );
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "%s: cannot decode PNG (%s)", path, image.message );
		return false;
	}
	*outRgba = buffer;
	*outWidth = (int)image.width;
	*outHeight = (int)image.height;
	return true;
}
