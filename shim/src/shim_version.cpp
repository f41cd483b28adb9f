// SPDX-License-Identifier: MIT
// Keeps the shim library non-empty before the collision algorithm lands.
namespace polydepth::bullet
{
int shimVersion()
{
	return 1;
}
} // namespace polydepth::bullet
