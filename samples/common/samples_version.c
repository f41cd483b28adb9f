// SPDX-License-Identifier: MIT
// Keeps the samples library non-empty before any generator or loader exists.
int smpSamplesVersion( void );
int smpSamplesVersion( void )
{
	return 1;
}
