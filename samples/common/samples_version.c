// SPDX-License-Identifier: MIT
// Keeps the samples library non-empty before any generator or loader exists.
int pdSamplesVersion( void );
int pdSamplesVersion( void )
{
	return 1;
}
