// SPDX-License-Identifier: MIT
// The extension module polydepth._polydepth (the package polydepth re-exports it).
#include "bindings.h"

PYBIND11_MODULE( _polydepth, m )
{
	using namespace polydepth::python;
	m.doc() = "Translational penetration depth between triangle meshes (the PolyDepth C library).";
	m.attr( "__version__" ) = std::to_string( PD_VERSION_MAJOR ) + "." + std::to_string( PD_VERSION_MINOR ) + "." +
							  std::to_string( PD_VERSION_PATCH );
	bindMeshAndPose( m );
	bindQueries( m );
	bindBatch( m );
}
