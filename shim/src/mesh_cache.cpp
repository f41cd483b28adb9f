// SPDX-License-Identifier: MIT
// Shape-to-mesh cache: pulls the triangles out of btStridingMeshInterface (every part, with the
// scaling Bullet applies), builds one pdMesh per shape and scaling, and shares it between pairs.
#include "shim_internal.h"

#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>

#include <cmath>
#include <cstring>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{
// Entries nobody uses are dropped once the cache holds more than this many.
constexpr size_t kPruneThreshold = 64;

uint64_t mix( uint64_t h, uint64_t v )
{
	h ^= v + 0x9E3779B97F4A7C15ull + ( h << 6 ) + ( h >> 2 );
	return h * 0xBF58476D1CE4E5B9ull;
}

uint64_t mixDouble( uint64_t h, double v )
{
	uint64_t bits = 0;
	std::memcpy( &bits, &v, sizeof( bits ) );
	return mix( h, bits );
}

uint64_t mixVector( uint64_t h, const btVector3& v )
{
	return mixDouble( mixDouble( mixDouble( h, (double)v.x() ), (double)v.y() ), (double)v.z() );
}

/// One sub-part to extract: which striding-interface subpart, with which scale.
struct PartRef
{
	int subpart;
	btVector3 scale;
};

const btStridingMeshInterface* meshInterfaceOf( const btCollisionShape* shape, std::vector<PartRef>& parts )
{
	parts.clear();
	switch ( shape->getShapeType() )
	{
		case GIMPACT_SHAPE_PROXYTYPE:
		{
			auto* gimpact = static_cast<const btGImpactShapeInterface*>( shape );
			if ( gimpact->getGImpactShapeType() != CONST_GIMPACT_TRIMESH_SHAPE )
			{
				return nullptr;
			}
			auto* mesh = static_cast<const btGImpactMeshShape*>( shape );
			// GImpact scales raw vertices by each part's own scale.
			for ( int i = 0; i < mesh->getMeshPartCount(); ++i )
			{
				const btGImpactMeshShapePart* part = mesh->getMeshPart( i );
				parts.push_back( { part->getPart(), part->getLocalScaling() } );
			}
			return mesh->getMeshInterface();
		}
		case TRIANGLE_MESH_SHAPE_PROXYTYPE:
		{
			auto* mesh = static_cast<const btBvhTriangleMeshShape*>( shape );
			const btStridingMeshInterface* mi = mesh->getMeshInterface();
			for ( int i = 0; i < mi->getNumSubParts(); ++i )
			{
				parts.push_back( { i, mi->getScaling() } );
			}
			return mi;
		}
		case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE:
		{
			auto* scaled = static_cast<const btScaledBvhTriangleMeshShape*>( shape );
			const btBvhTriangleMeshShape* child = scaled->getChildShape();
			if ( child == nullptr )
			{
				return nullptr;
			}
			const btStridingMeshInterface* mi = child->getMeshInterface();
			for ( int i = 0; i < mi->getNumSubParts(); ++i )
			{
				parts.push_back( { i, mi->getScaling() * scaled->getLocalScaling() } );
			}
			return mi;
		}
		default:
			return nullptr;
	}
}

// Three packed values of type T at p, converted to out's type.
template <typename T, typename Out> void readThree( const unsigned char* p, Out out[3] )
{
	T v[3];
	std::memcpy( v, p, sizeof( v ) );
	out[0] = v[0];
	out[1] = v[1];
	out[2] = v[2];
}

bool readVertex( const unsigned char* base, int stride, PHY_ScalarType type, int index, double out[3] )
{
	const unsigned char* p = base + (size_t)index * (size_t)stride;
	if ( type == PHY_FLOAT )
	{
		readThree<float>( p, out );
		return true;
	}
	if ( type == PHY_DOUBLE )
	{
		std::memcpy( out, p, 3 * sizeof( double ) );
		return true;
	}
	return false;
}

bool readTriangle( const unsigned char* base, int stride, PHY_ScalarType type, int index, uint32_t out[3] )
{
	const unsigned char* p = base + (size_t)index * (size_t)stride;
	if ( type == PHY_INTEGER )
	{
		int32_t v[3];
		std::memcpy( v, p, sizeof( v ) );
		for ( int k = 0; k < 3; ++k )
		{
			out[k] = v[k] < 0 ? UINT32_MAX : (uint32_t)v[k];
		}
		return true;
	}
	if ( type == PHY_SHORT )
	{
		readThree<uint16_t>( p, out );
		return true;
	}
	if ( type == PHY_UCHAR )
	{
		readThree<uint8_t>( p, out );
		return true;
	}
	return false;
}

/// One sub-part's vertex and index arrays as the striding interface hands them out, locked for
/// reading until unLockReadOnlyVertexBase.
struct LockedPart
{
	const unsigned char* vbase = nullptr;
	const unsigned char* ibase = nullptr;
	int numVerts = 0, vstride = 0, istride = 0, numFaces = 0;
	PHY_ScalarType vtype = PHY_FLOAT, itype = PHY_INTEGER;
};

LockedPart lockPart( const btStridingMeshInterface* mi, int subpart )
{
	LockedPart a;
	mi->getLockedReadOnlyVertexIndexBase( &a.vbase, a.numVerts, a.vtype, a.vstride, &a.ibase, a.istride, a.numFaces,
										  a.itype, subpart );
	return a;
}

// Content signature: layout of every part plus a few vertex values, and the scaling.
uint64_t contentSignature( const btCollisionShape* shape )
{
	if ( isConvexShape( shape ) )
	{
		return convexContentSignature( shape );
	}
	std::vector<PartRef> parts;
	const btStridingMeshInterface* mi = meshInterfaceOf( shape, parts );
	uint64_t h = mix( 0x1234567ull, (uint64_t)(uintptr_t)mi );
	h = mix( h, (uint64_t)shape->getShapeType() );
	if ( mi == nullptr )
	{
		return h;
	}
	for ( const PartRef& part : parts )
	{
		const LockedPart a = lockPart( mi, part.subpart );
		h = mix( h, (uint64_t)(uintptr_t)a.vbase );
		h = mix( h, (uint64_t)(uintptr_t)a.ibase );
		h = mix( h, (uint64_t)a.numVerts );
		h = mix( h, (uint64_t)a.numFaces );
		h = mix( h, ( (uint64_t)a.vtype << 32 ) | (uint64_t)a.itype );
		h = mix( h, ( (uint64_t)(uint32_t)a.vstride << 32 ) | (uint64_t)(uint32_t)a.istride );
		if ( a.vbase != nullptr && a.numVerts > 0 )
		{
			const int samples[3] = { 0, a.numVerts / 2, a.numVerts - 1 };
			for ( int s : samples )
			{
				double v[3] = { 0.0, 0.0, 0.0 };
				if ( readVertex( a.vbase, a.vstride, a.vtype, s, v ) )
				{
					h = mixDouble( mixDouble( mixDouble( h, v[0] ), v[1] ), v[2] );
				}
			}
		}
		mi->unLockReadOnlyVertexBase( part.subpart );
		h = mixVector( h, part.scale );
	}
	return h;
}

pdMesh* createMesh( const std::vector<double>& vertices, const std::vector<uint32_t>& indices )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = vertices.data();
	def.vertexCount = (int)( vertices.size() / 3 );
	def.vertexType = PD_SCALAR_FLOAT64;
	def.indices = indices.data();
	def.triangleCount = (int)( indices.size() / 3 );
	def.indexType = PD_INDEX_UINT32;
	pdMeshReport report;
	return pdCreateMesh( &def, &report );
}

pdMesh* buildMesh( const btCollisionShape* shape, int roundSegments )
{
	if ( isConvexShape( shape ) )
	{
		ShapeTriangles triangles;
		const char* problem = nullptr;
		if ( !convexShapeTriangles( shape, roundSegments, triangles, &problem ) )
		{
			return nullptr;
		}
		return createMesh( triangles.vertices, triangles.indices );
	}
	std::vector<PartRef> parts;
	const btStridingMeshInterface* mi = meshInterfaceOf( shape, parts );
	if ( mi == nullptr )
	{
		return nullptr;
	}
	std::vector<double> vertices;
	std::vector<uint32_t> indices;
	bool ok = true;
	for ( const PartRef& part : parts )
	{
		const LockedPart a = lockPart( mi, part.subpart );
		uint32_t offset = (uint32_t)( vertices.size() / 3 );
		if ( a.vbase == nullptr || a.ibase == nullptr || a.numVerts <= 0 || a.numFaces <= 0 )
		{
			mi->unLockReadOnlyVertexBase( part.subpart );
			continue;
		}
		const double scale[3] = { (double)part.scale.x(), (double)part.scale.y(), (double)part.scale.z() };
		for ( int i = 0; i < a.numVerts && ok; ++i )
		{
			double v[3] = { 0.0, 0.0, 0.0 };
			ok = readVertex( a.vbase, a.vstride, a.vtype, i, v );
			vertices.push_back( v[0] * scale[0] );
			vertices.push_back( v[1] * scale[1] );
			vertices.push_back( v[2] * scale[2] );
		}
		for ( int t = 0; t < a.numFaces && ok; ++t )
		{
			uint32_t tri[3];
			ok = readTriangle( a.ibase, a.istride, a.itype, t, tri );
			for ( int k = 0; k < 3 && ok; ++k )
			{
				// Out-of-range stays out of range so pdCreateMesh rejects it with a message.
				indices.push_back( tri[k] < (uint32_t)a.numVerts ? tri[k] + offset : UINT32_MAX );
			}
		}
		mi->unLockReadOnlyVertexBase( part.subpart );
	}
	if ( !ok || vertices.empty() || indices.empty() )
	{
		return nullptr;
	}
	return createMesh( vertices, indices );
}

} // namespace

MeshEntry::~MeshEntry()
{
	pdDestroyMesh( mesh );
}

bool isGImpactMesh( const btCollisionShape* shape )
{
	return shape != nullptr && shape->getShapeType() == GIMPACT_SHAPE_PROXYTYPE &&
		   static_cast<const btGImpactShapeInterface*>( shape )->getGImpactShapeType() == CONST_GIMPACT_TRIMESH_SHAPE;
}

bool isSupportedShape( const btCollisionShape* shape )
{
	if ( shape == nullptr )
	{
		return false;
	}
	int type = shape->getShapeType();
	return isGImpactMesh( shape ) || type == TRIANGLE_MESH_SHAPE_PROXYTYPE ||
		   type == SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE || isConvexShape( shape );
}

bool isPairShape( const btCollisionShape* shape )
{
	return isSupportedShape( shape ) || isGroundShape( shape ) || isRoundedShape( shape );
}

bool isSupportedPair( const btCollisionShape* shape0, const btCollisionShape* shape1 )
{
	return ( isGImpactMesh( shape0 ) && isPairShape( shape1 ) ) || ( isGImpactMesh( shape1 ) && isPairShape( shape0 ) );
}

uint64_t shapeScaleKey( const btCollisionShape* shape )
{
	if ( isConvexShape( shape ) )
	{
		return convexShapeKey( shape );
	}
	uint64_t h = 0x51ull;
	if ( isGImpactMesh( shape ) )
	{
		auto* mesh = static_cast<const btGImpactMeshShape*>( shape );
		for ( int i = 0; i < mesh->getMeshPartCount(); ++i )
		{
			h = mixVector( h, mesh->getMeshPart( i )->getLocalScaling() );
		}
		return h;
	}
	if ( shape->getShapeType() == SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE )
	{
		auto* scaled = static_cast<const btScaledBvhTriangleMeshShape*>( shape );
		h = mixVector( h, scaled->getLocalScaling() );
		if ( scaled->getChildShape() != nullptr )
		{
			h = mixVector( h, scaled->getChildShape()->getLocalScaling() );
		}
		return h;
	}
	return mixVector( h, shape->getLocalScaling() );
}

MeshRef MeshCache::acquire( const btCollisionShape* shape )
{
	if ( !isSupportedShape( shape ) )
	{
		return nullptr;
	}
	uint64_t signature = contentSignature( shape );
	std::lock_guard<std::mutex> lock( m_mutex );
	auto it = m_entries.find( shape );
	if ( it != m_entries.end() && it->second->signature == signature )
	{
		return it->second;
	}
	// Built under the lock: two pairs meeting a new shape at once build it once.
	auto entry = std::make_shared<MeshEntry>();
	entry->shape = shape;
	entry->signature = signature;
	entry->scaleKey = shapeScaleKey( shape );
	entry->mesh = buildMesh( shape, roundSegments );
	entry->closed = entry->mesh != nullptr && pdMesh_GetInfo( entry->mesh ).closed;
	m_builds.fetch_add( 1 );
	m_entries[shape] = entry;
	if ( m_entries.size() > kPruneThreshold )
	{
		for ( auto e = m_entries.begin(); e != m_entries.end(); )
		{
			e = e->second.use_count() == 1 ? m_entries.erase( e ) : std::next( e );
		}
	}
	return entry;
}

int MeshCache::size() const
{
	std::lock_guard<std::mutex> lock( m_mutex );
	return (int)m_entries.size();
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
