// SPDX-License-Identifier: MIT
int pdContactPluginVersion( void );
int pdContactPluginVersion( void )
{
	return 1;
}
