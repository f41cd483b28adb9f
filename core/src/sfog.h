// SPDX-License-Identifier: MIT
// Private: the spherical face orientation graph (SFOG): built once per mesh, used to prune
// inapplicable contact feature pairs and for the exact convex PD.
//
// Stage split: sfog.c builds the graph, sfog_applicable.c holds the applicability predicates
// (pdiSfog_IsApplicable and the vertex and arc tests under it), sfog_overlay.c the convex
// overlay walk and the exact convex PD. The overlays for meshes of any topology (sphere sweeps
// and the naive reference) are benchmark experiments in bench/experiments/sfog/.
#pragma once

#include "mesh.h"
#include "workspace.h"

typedef struct pdiSfog pdiSfog;

/// Builds the graph for a mesh with adjacency. Returns NULL when out of memory (the mesh is
/// then simply used without pruning). Never fails on odd topology: undecidable parts are
/// marked so that they are never pruned.
pdiSfog* pdiSfog_Build( const pdMesh* mesh );
void pdiSfog_Destroy( pdiSfog* sfog );
size_t pdiSfog_Bytes( const pdiSfog* sfog );

/// Orientation pruning of one contact feature pair (Donald's applicability constraints on the
/// Gauss map). rotationA/rotationB are the meshes' world rotations. Returns false only when the
/// pair is provably inapplicable (VF: the reflected face normal of B is outside the normal cone
/// of A's vertex; EE: the two arcs, one reflected, do not cross); true whenever applicability
/// cannot be decided (open soups, non-manifold edges, no graph).
bool pdiSfog_IsApplicable( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB, const pdiMat33* rotationB,
						  const pdContactFeature* feature );

/// Exact translational PD of two convex meshes from the overlay of their orientation graphs
/// (the applicable pairs are the faces of the Minkowski sum). outTranslation moves A (world).
/// Returns PD_STATUS_FAILED when either mesh is not convex or has no graph. outCandidates (may
/// be NULL) receives the number of applicable pairs evaluated.
/// Separated or touching meshes: PD_STATUS_OK with depth 0 and a zero translation.
pdStatus pdiSfog_ConvexPenetration( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB,
								   const pdiFrame* frameB, pdWorkspace* ws, pdVec3* outTranslation, double* outDepth,
								   int* outCandidates );

// ---------------------------------------------------------------------------------------------
// Graph layout (read by sfog_applicable.c, sfog_overlay.c, the experiments and the tests).

/// Angular tolerance (radians) of every applicability predicate: a pair within this of the
/// boundary of applicability is kept.
#define PDI_SFOG_ANGLE_TOLERANCE 1e-5

// Most pairs one overlay returns (3.2 GB of pairs). A non-convex mesh's self-overlay grows
// quadratically (85M pairs for a 10k-triangle knot), so a large model reaches this; the
// overlay then fails with PD_STATUS_OUT_OF_MEMORY instead of overflowing the int count.
#define PDI_SFOG_MAX_PAIRS ( 1 << 28 )

/// Vertex valence above which a vertex is simply marked undecidable.
#define PDI_SFOG_MAX_VALENCE 64

typedef enum pdiSfogVertexKind
{
	PDI_SFOG_VERTEX_UNDECIDABLE = 0, ///< never pruned (boundary, non-manifold, saddle without pseudo-vertex)
	PDI_SFOG_VERTEX_CONVEX = 1,      ///< normal cone spanned by the ordered adjacent face normals
	PDI_SFOG_VERTEX_PSEUDO = 2,      ///< non-convex: the cone of the pseudo-vertex (local convex hull)
} pdiSfogVertexKind;

typedef enum pdiSfogArcKind
{
	PDI_SFOG_ARC_UNDECIDABLE = 0, ///< boundary/non-manifold/inconsistent edge or a knife edge: never pruned
	PDI_SFOG_ARC_MINOR = 1,       ///< convex edge
	PDI_SFOG_ARC_MAJOR = 2,       ///< concave edge
	PDI_SFOG_ARC_POINT = 3,       ///< flat edge (both faces in one face node): the arc is a point
} pdiSfogArcKind;

struct pdiSfog
{
	bool decidable; ///< closed and outward: otherwise everything is undecidable
	bool convex;    ///< usable for the convex overlay walk (convex mesh, every vertex convex, no knife arc)

	int nodeCount;
	pdVec3* nodeNormals; ///< [nodeCount] unit outward normal of each face node (merged coplanar triangles)
	int* nodePoint;      ///< [nodeCount] a mesh vertex on the node's plane
	int* nodeArcStart;   ///< [nodeCount + 1] CSR into nodeArcs
	int* nodeArcs;       ///< edge ids of the arcs leaving each node (edges joining two different nodes)
	int triangleCount;
	int* triangleNode; ///< [triangleCount] face node of each kept triangle

	int edgeCount;
	uint8_t* arcKind; ///< [edgeCount] pdiSfogArcKind
	int* arcNode;     ///< [2 * edgeCount] nodes of face0 and face1 (-1 when missing)
	pdVec3* arcAxis;  ///< [edgeCount] unit normal of the arc's great circle, node0 x node1 oriented

	int vertexCount;
	uint8_t* vertexKind; ///< [vertexCount] pdiSfogVertexKind
	int* ringStart;      ///< [vertexCount + 1] CSR into the ring arrays
	int* ringVertex;     ///< neighbour vertex (ordered around the vertex for convex vertices)
	int* ringEdge;       ///< edge id to that neighbour
	pdVec3* ringDir;     ///< unit direction from the vertex to the neighbour
	pdVec3* ringVec;     ///< neighbour minus vertex (mesh frame), for the convex walks
	int* cornerStart;    ///< [vertexCount + 1] CSR into corners
	pdVec3* corners;     ///< ordered corners of the vertex region (spherical polygon, arc or point)
	pdVec3* cornerAxis;  ///< unit normal of the region boundary arc from corner i to corner i+1

	size_t bytes;
};

/// One applicable pair of an overlay. VF: a = vertex of A, b = face node of B. FV: a = face
/// node of A, b = vertex of B. EE: a = edge of A, b = edge of B.
typedef struct pdiSfogPair
{
	pdContactKind kind;
	int a, b;
} pdiSfogPair;

/// Counters of an overlay run (for benchmarks: pruning ratio and overlay cost). The sweep and
/// kinetic counters are filled by the overlays in bench/experiments/sfog/.
typedef struct pdiSfogOverlayStats
{
	int64_t pairsBefore; ///< all VF + FV + EE pairs of the two graphs (vertices x nodes, edges x edges)
	int pairsAfter;      ///< applicable pairs reported
	int64_t tests;       ///< exact predicate evaluations (walk steps for the convex overlay)
	int events;          ///< sweep events (0 for walks and the naive reference)
	int steps;           ///< walk steps (convex overlay)
	int kineticEvents;   ///< blocks sweep: INTERNAL and PURPLE events processed
	int purpleEvents;    ///< blocks sweep: PURPLE events (bichromatic crossings of block limits)
} pdiSfogOverlayStats;

/// The canonical index of vertex v (the lowest index at the same position).
static inline int pdiSfog_Canonical( const pdMesh* mesh, int v )
{
	return mesh->canonicalVertex != NULL ? mesh->canonicalVertex[v] : v;
}

/// Applicability predicates in A's frame. d is a unit direction; a vertex accepts it when d is in
/// the vertex's normal cone (within tol radians). Undecidable vertices accept everything.
bool pdiSfog_VertexAccepts( const pdiSfog* sfog, int vertex, pdVec3 d, double tol );
/// True when the arc of edgeA (A's frame) and the reflected arc of edgeB (rotated into A's frame
/// by rotationBA) cross within tol radians; parallel or undecidable arcs give true.
bool pdiSfog_ArcsCross( const pdiSfog* sfogA, int edgeA, const pdiSfog* sfogB, int edgeB, const pdiMat33* rotationBA,
					   double tol );
/// rotationBA = rotationA^T rotationB.
pdiMat33 pdiSfog_RelativeRotation( const pdiMat33* rotationA, const pdiMat33* rotationB );

/// The convex overlay: every applicable pair of two convex graphs, by walking B's face graph
/// across A's vertex regions and A's face graph across B's reflected vertex regions (linear in
/// the output). Pairs live in ws->sfogPairs until the next sfog call. PD_STATUS_FAILED when a
/// graph is not usable as convex.
pdStatus pdiSfog_OverlayConvex( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							   const pdiMat33* rotationB, pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
							   pdiSfogOverlayStats* outStats );

/// Appends a pair to ws->sfogPairs (count in *ioCount). False on out of memory or at
/// PDI_SFOG_MAX_PAIRS.
bool pdiSfog_PushPair( pdWorkspace* ws, int* ioCount, pdContactKind kind, int a, int b );
