// SPDX-License-Identifier: MIT
// Convex overlay of two orientation graphs and the exact convex PD from it.
//
// For convex meshes the vertex regions of A tile the sphere, so the region containing a
// direction is found by hill climbing, and following a direction along an arc of B crosses
// exactly the arcs of A that the arc crosses (the FACE_APP / EDGE_APP walk): walking B's face
// graph breadth-first from one node, arc by arc, yields every VF pair (the A vertex at each B
// face node) and every EE pair (each A edge crossed), and walking A's face graph across B's
// reflected regions yields every FV pair. The cost is linear in the output times the valence.
// The applicable pairs are the faces of the Minkowski sum, so the PD is the smallest overlap
// along their normals. For the PD alone (pdiSfog_ConvexPenetration) both walks skip, with a
// proof, every part of the sphere where no pair can beat the best overlap found so far.
#include "sfog.h"

#include "core.h"

typedef struct pdiSfogWalk
{
	const pdMesh* meshA;
	const pdiSfog* sA;
	const pdMesh* meshB;
	const pdiSfog* sB;
	const pdVec3* vertsB;   ///< [V_B] B's vertices in A's frame
	const pdVec3* normalsB; ///< [N_B] B's node normals in A's frame (not reflected)
	pdWorkspace* ws;
	bool store;
	int count;
	bool evaluate;
	double best;     ///< smallest overlap so far
	pdVec3 bestAxis; ///< A's frame: A moves along it by best to separate
	int steps;
	int evaluated;      ///< pairs recorded
	double* crossScore; ///< [2 * E_A] per A edge end: closeness of the nearest crossing to that end
	int* crossEdge;     ///< [2 * E_A] the B edge of that crossing (-1 none)
	bool failed;
} pdiSfogWalk;

bool pdiSfog_PushPair( pdWorkspace* ws, int* ioCount, pdContactKind kind, int a, int b )
{
	if ( *ioCount >= PDI_SFOG_MAX_PAIRS )
	{
		return false;
	}
	size_t need = sizeof( pdiSfogPair ) * (size_t)( *ioCount + 1 );
	if ( need > ws->sfogPairs.capacity && !pdiBuffer_Reserve( &ws->sfogPairs, need, true ) )
	{
		return false;
	}
	pdiSfogPair* pairs = ws->sfogPairs.data;
	pairs[*ioCount].kind = kind;
	pairs[*ioCount].a = a;
	pairs[*ioCount].b = b;
	*ioCount += 1;
	return true;
}

static void pdiSfog_Consider( pdiSfogWalk* w, double overlap, pdVec3 axis )
{
	if ( overlap < w->best )
	{
		w->best = overlap;
		w->bestAxis = axis;
	}
}

static void pdiSfog_RecordVF( pdiSfogWalk* w, int vertexA, int nodeB )
{
	w->evaluated += 1;
	if ( w->store && !pdiSfog_PushPair( w->ws, &w->count, PD_CONTACT_VF, vertexA, nodeB ) )
	{
		w->failed = true;
	}
	if ( w->evaluate )
	{
		// B's face normal: A leaves along it by max_B n.x - min_A n.x.
		pdVec3 u = w->normalsB[nodeB];
		pdVec3 b = w->vertsB[w->sB->nodePoint[nodeB]];
		pdiSfog_Consider( w, pdiDot( u, pdiSub( b, w->meshA->vertices[vertexA] ) ), u );
	}
}

static void pdiSfog_RecordFV( pdiSfogWalk* w, int nodeA, int vertexB )
{
	w->evaluated += 1;
	if ( w->store && !pdiSfog_PushPair( w->ws, &w->count, PD_CONTACT_FV, nodeA, vertexB ) )
	{
		w->failed = true;
	}
	if ( w->evaluate )
	{
		// A's face normal n: A leaves along -n.
		pdVec3 u = pdiNeg( w->sA->nodeNormals[nodeA] );
		pdVec3 a = w->meshA->vertices[w->sA->nodePoint[nodeA]];
		pdiSfog_Consider( w, pdiDot( u, pdiSub( w->vertsB[vertexB], a ) ), u );
	}
}

static void pdiSfog_RecordEE( pdiSfogWalk* w, int edgeA, int edgeB )
{
	w->evaluated += 1;
	if ( w->store && !pdiSfog_PushPair( w->ws, &w->count, PD_CONTACT_EE, edgeA, edgeB ) )
	{
		w->failed = true;
	}
	const pdiMeshEdge* ea = w->meshA->edges + edgeA;
	const pdiMeshEdge* eb = w->meshB->edges + edgeB;
	pdVec3 a0 = w->meshA->vertices[ea->v0];
	pdVec3 da = pdiSub( w->meshA->vertices[ea->v1], a0 );
	pdVec3 b0 = w->vertsB[eb->v0];
	pdVec3 db = pdiSub( w->vertsB[eb->v1], b0 );
	pdVec3 c = pdiCross( da, db );
	double cc = pdiLengthSq( c );
	if ( !( cc > 1e-24 * pdiLengthSq( da ) * pdiLengthSq( db ) ) || cc <= 0.0 )
	{
		return; // parallel edges: the face of the Minkowski sum comes from a face pair
	}
	c = pdiScale( c, 1.0 / sqrt( cc ) );
	// The crossing direction lies on A's arc and its reflection on B's arc; orient c by the
	// better conditioned of the two, then A leaves along the reflection (B's normal).
	const int* na = w->sA->arcNode + 2 * edgeA;
	const int* nb = w->sB->arcNode + 2 * edgeB;
	pdVec3 n0 = w->sA->nodeNormals[na[0]], n1 = w->sA->nodeNormals[na[1]];
	double sideA = pdiDot( c, pdiAdd( n0, n1 ) );
	double sideB = -pdiDot( c, pdiAdd( w->normalsB[nb[0]], w->normalsB[nb[1]] ) );
	double side = fabs( sideA ) >= fabs( sideB ) ? sideA : sideB;
	pdVec3 u = side >= 0.0 ? pdiNeg( c ) : c;
	// Remember the crossing nearest to each end of A's arc: the B region just past it is where
	// that A face node lies (a starting guess for the full FV pass; the pruned one, which has
	// its own, leaves crossScore NULL).
	if ( w->crossScore != NULL )
	{
		double s0 = -pdiDot( u, n0 ), s1 = -pdiDot( u, n1 );
		if ( s0 > w->crossScore[2 * edgeA] )
		{
			w->crossScore[2 * edgeA] = s0;
			w->crossEdge[2 * edgeA] = edgeB;
		}
		if ( s1 > w->crossScore[2 * edgeA + 1] )
		{
			w->crossScore[2 * edgeA + 1] = s1;
			w->crossEdge[2 * edgeA + 1] = edgeB;
		}
	}
	if ( w->evaluate )
	{
		pdiSfog_Consider( w, pdiDot( u, pdiSub( b0, a0 ) ), u );
	}
}

// Follows the direction p + t (q - p), t from 0 to 1, across the vertex regions of a convex
// graph (p and q in the graph's own frame), starting at vertex v whose region contains p.
// Records an EE pair for every arc crossed when edgeB >= 0. Returns the vertex whose region
// contains q; stops early on reaching target (already known to hold q).
static int pdiSfog_Climb( pdiSfogWalk* w, const pdiSfog* s, int v, pdVec3 p, pdVec3 q, int edgeB, int target )
{
	for ( int iter = 0; iter <= s->vertexCount; ++iter )
	{
		if ( v == target )
		{
			return v;
		}
		double bestT = 2.0;
		int bestK = -1;
		int end = s->ringStart[v + 1];
		for ( int k = s->ringStart[v]; k < end; ++k )
		{
			pdVec3 diff = s->ringVec[k];
			double g1 = pdiDot( q, diff );
			if ( g1 <= 0.0 )
			{
				continue; // still behind this neighbour at the end of the arc
			}
			double g0 = pdiDot( p, diff );
			double t = g0 <= 0.0 ? g0 / ( g0 - g1 ) : 0.0;
			if ( t < bestT )
			{
				bestT = t;
				bestK = k;
			}
		}
		if ( bestK < 0 )
		{
			return v;
		}
		int edge = s->ringEdge[bestK];
		if ( edgeB >= 0 && s->arcKind[edge] != PDI_SFOG_ARC_POINT )
		{
			pdiSfog_RecordEE( w, edge, edgeB );
		}
		v = s->ringVertex[bestK];
		w->steps += 1;
	}
	w->failed = true; // cannot happen on a convex mesh (q.x increases at every step)
	return v;
}

// The vertex of a convex graph whose region contains direction q (the support vertex along q),
// by steepest ascent of q . x from vertex v. On a convex mesh q . x has no local maximum but the
// global one, and it rises at every step, so this ends within vertexCount steps; following the
// great circle (pdiSfog_Climb) is needed only where the crossings are recorded.
static int pdiSfog_Locate( pdiSfogWalk* w, const pdiSfog* s, int v, pdVec3 q )
{
	for ( int iter = 0; iter <= s->vertexCount; ++iter )
	{
		double bestGain = 0.0;
		int bestK = -1;
		int end = s->ringStart[v + 1];
		for ( int k = s->ringStart[v]; k < end; ++k )
		{
			double gain = pdiDot( q, s->ringVec[k] );
			if ( gain > bestGain )
			{
				bestGain = gain;
				bestK = k;
			}
		}
		if ( bestK < 0 )
		{
			return v;
		}
		v = s->ringVertex[bestK];
		w->steps += 1;
	}
	w->failed = true; // cannot happen on a convex mesh
	return v;
}

// The node at the other end of arc e from node f.
static int pdiSfog_OtherNode( const pdiSfog* s, int e, int f )
{
	return s->arcNode[2 * e] == f ? s->arcNode[2 * e + 1] : s->arcNode[2 * e];
}

// A vertex with a ring (vertex 0 may be unreferenced or a welded duplicate).
static int pdiSfog_StartVertex( const pdMesh* mesh )
{
	int v = mesh->triangles[0][0];
	return mesh->canonicalVertex != NULL ? mesh->canonicalVertex[v] : v;
}

// The face-graph walk for the PD only, skipping what cannot beat the best overlap so far.
// The overlap along u is the support function of M = B - A, so any point m of M bounds it
// from below by u . m; along an arc shorter than a half-turn u . m is a sinusoid, which stays
// above a non-negative level in between when it is above it at both ends. So an arc f-g
// whose ends both see u . m above the best, for m the support point at a walked node, holds
// no EE pair worth recording, and its far node no VF pair: it is certified instead of walked,
// and g is queued as certified, hanging from f. A certified node's witness is its own B point
// (B's support along its normal, so at least as good there as the parent's) less the A vertex of
// the walked node it hangs from; its arcs are certified by it when their far ends allow, and
// otherwise the node is located after all (a climb without recording from the walked node it
// hangs from) and queued again to be walked. Every arc is walked or certified and every node
// walked or certified, so the smallest overlap is the one the full walk finds.
static void pdiSfog_PrunedFaceWalk( pdiSfogWalk* w, int startNode, int* vertexOfB, int* anchorOfB, int* queue,
								   uint8_t* edgeDone, uint8_t* nodeSeen )
{
	const pdiSfog* sA = w->sA;
	const pdiSfog* sB = w->sB;
	const pdVec3* normalsB = w->normalsB;
	int NB = sB->nodeCount;
	pdVec3 p0 = pdiNeg( normalsB[startNode] );
	vertexOfB[startNode] = pdiSfog_Locate( w, sA, pdiSfog_StartVertex( w->meshA ), p0 );
	int head = 0, tail = 0, seen = 1;
	queue[tail++] = startNode;
	nodeSeen[startNode] = 1;
	while ( head < tail && !w->failed )
	{
		int f = queue[head++];
		if ( vertexOfB[f] < 0 )
		{
			// Certified: pass the certificate on where it holds, else locate f and walk it. The
			// witness pairs f's own B point (B's support along n_f) with the anchor's A vertex.
			pdVec3 m = pdiSub( w->vertsB[sB->nodePoint[f]], w->meshA->vertices[vertexOfB[anchorOfB[f]]] );
			bool locate = false;
			for ( int j = sB->nodeArcStart[f]; j < sB->nodeArcStart[f + 1] && !locate; ++j )
			{
				int e = sB->nodeArcs[j];
				if ( edgeDone[e] )
				{
					continue;
				}
				int g = pdiSfog_OtherNode( sB, e, f );
				if ( w->best >= 0.0 && pdiDot( normalsB[g], m ) > w->best )
				{
					edgeDone[e] = 1;
					if ( !nodeSeen[g] )
					{
						// Unseen nodes are unlocated (vertexOfB -1): queued certified.
						nodeSeen[g] = 1;
						seen += 1;
						anchorOfB[g] = anchorOfB[f];
						queue[tail++] = g;
					}
					continue;
				}
				locate = true;
			}
			if ( locate )
			{
				vertexOfB[f] = pdiSfog_Locate( w, sA, vertexOfB[anchorOfB[f]], pdiNeg( normalsB[f] ) );
				queue[tail++] = f;
			}
			continue;
		}
		int vf = vertexOfB[f];
		pdVec3 pf = pdiNeg( normalsB[f] );
		pdiSfog_RecordVF( w, vf, f );
		pdVec3 m = pdiSub( w->vertsB[sB->nodePoint[f]], w->meshA->vertices[vf] ); // the support point at n_f
		double overlapF = pdiDot( normalsB[f], m );
		for ( int j = sB->nodeArcStart[f]; j < sB->nodeArcStart[f + 1]; ++j )
		{
			int e = sB->nodeArcs[j];
			if ( edgeDone[e] )
			{
				continue;
			}
			edgeDone[e] = 1;
			int g = pdiSfog_OtherNode( sB, e, f );
			bool certified = w->best >= 0.0 && overlapF > w->best && pdiDot( normalsB[g], m ) > w->best;
			if ( certified && nodeSeen[g] )
			{
				continue;
			}
			if ( certified )
			{
				anchorOfB[g] = f;
			}
			else
			{
				int target = vertexOfB[g];
				int vg = pdiSfog_Climb( w, sA, vf, pf, pdiNeg( normalsB[g] ), e, target );
				if ( target >= 0 )
				{
					continue; // already located, and queued when it was
				}
				// Located now; if it was certified earlier, queue it again to walk its arcs.
				vertexOfB[g] = vg;
			}
			if ( !nodeSeen[g] )
			{
				nodeSeen[g] = 1;
				seen += 1;
			}
			queue[tail++] = g;
		}
	}
	if ( seen != NB )
	{
		w->failed = true; // a disconnected face graph: not one convex polyhedron
	}
}

// The FV pass for the PD only: A's face graph breadth-first from the face opposite the best
// direction so far, each face's B region climbed from its parent's (short climbs), and no climb
// where a known vertex of B already proves the FV overlap above the best (any vertex of B bounds
// B's support along the direction from below).
static void pdiSfog_PrunedFvPass( pdiSfogWalk* w, const pdiMat33* rotationBA, int* vertexOfA, int* queue, int* guessOfA )
{
	const pdiSfog* sA = w->sA;
	const pdiSfog* sB = w->sB;
	int NA = sA->nodeCount;
	int start = 0;
	double startScore = -INFINITY;
	for ( int g = 0; g < NA; ++g )
	{
		double score = -pdiDot( sA->nodeNormals[g], w->bestAxis );
		if ( score > startScore )
		{
			startScore = score;
			start = g;
		}
		guessOfA[g] = -1;
	}
	int head = 0, tail = 0;
	queue[tail++] = start;
	guessOfA[start] = pdiSfog_StartVertex( w->meshB );
	while ( head < tail && !w->failed )
	{
		int g = queue[head++];
		pdVec3 d = pdiNeg( sA->nodeNormals[g] );
		int guess = guessOfA[g];
		int located = guess;
		if ( pdiDot( d, pdiSub( w->vertsB[guess], w->meshA->vertices[sA->nodePoint[g]] ) ) > w->best )
		{
			w->evaluated += 1;
		}
		else
		{
			pdVec3 p = pdiNeg( pdiMulMTV( rotationBA, sA->nodeNormals[g] ) );
			vertexOfA[g] = pdiSfog_Locate( w, sB, guess, p );
			located = vertexOfA[g];
			pdiSfog_RecordFV( w, g, located );
		}
		for ( int j = sA->nodeArcStart[g]; j < sA->nodeArcStart[g + 1]; ++j )
		{
			int e = sA->nodeArcs[j];
			int h = pdiSfog_OtherNode( sA, e, g );
			if ( guessOfA[h] < 0 )
			{
				guessOfA[h] = located;
				queue[tail++] = h;
			}
		}
	}
	if ( tail != NA )
	{
		w->failed = true; // a disconnected face graph
	}
}

// B's face graph across A's vertex regions, breadth-first from startNode: the A vertex at each
// B node (VF) and, along each arc, the A edges it crosses (EE, recorded by the climb).
static void pdiSfog_FaceWalk( pdiSfogWalk* w, int startNode, int* vertexOfB, int* queue, uint8_t* edgeDone )
{
	const pdiSfog* sA = w->sA;
	const pdiSfog* sB = w->sB;
	const pdVec3* normalsB = w->normalsB;
	int NB = sB->nodeCount;
	pdVec3 p0 = pdiNeg( normalsB[startNode] );
	vertexOfB[startNode] = pdiSfog_Locate( w, sA, pdiSfog_StartVertex( w->meshA ), p0 );
	int head = 0, tail = 0;
	queue[tail++] = startNode;
	while ( head < tail && !w->failed )
	{
		int f = queue[head++];
		int vf = vertexOfB[f];
		pdVec3 pf = pdiNeg( normalsB[f] );
		for ( int j = sB->nodeArcStart[f]; j < sB->nodeArcStart[f + 1]; ++j )
		{
			int e = sB->nodeArcs[j];
			if ( edgeDone[e] )
			{
				continue;
			}
			edgeDone[e] = 1;
			int g = pdiSfog_OtherNode( sB, e, f );
			int vg = pdiSfog_Climb( w, sA, vf, pf, pdiNeg( normalsB[g] ), e, vertexOfB[g] );
			if ( vertexOfB[g] < 0 )
			{
				vertexOfB[g] = vg;
				queue[tail++] = g;
			}
		}
	}
	if ( tail != NB )
	{
		w->failed = true; // a disconnected face graph: not one convex polyhedron
	}
	for ( int f = 0; f < NB && !w->failed; ++f )
	{
		pdiSfog_RecordVF( w, vertexOfB[f], f );
	}
}

// A's face nodes located in B's reflected regions (FV), each starting from the guess that the
// crossings recorded by the face walk give (normalsAinB: A's node normals in B's frame).
static void pdiSfog_FvPass( pdiSfogWalk* w, const pdVec3* normalsAinB, int* vertexOfA )
{
	const pdiSfog* sA = w->sA;
	const pdVec3* vertsB = w->vertsB;
	int NA = sA->nodeCount;
	int guess = pdiSfog_StartVertex( w->meshB );
	for ( int g = 0; g < NA && !w->failed; ++g )
	{
		pdVec3 d = pdiNeg( sA->nodeNormals[g] );
		for ( int j = sA->nodeArcStart[g]; j < sA->nodeArcStart[g + 1]; ++j )
		{
			int e = sA->nodeArcs[j];
			int slot = 2 * e + ( sA->arcNode[2 * e] == g ? 0 : 1 );
			int eB = w->crossEdge[slot];
			if ( eB >= 0 )
			{
				int w0 = w->meshB->edges[eB].v0, w1 = w->meshB->edges[eB].v1;
				guess = pdiDot( d, pdiSub( vertsB[w1], vertsB[w0] ) ) > 0.0 ? w1 : w0;
				break;
			}
		}
		pdVec3 p = pdiNeg( normalsAinB[g] );
		vertexOfA[g] = pdiSfog_Locate( w, w->sB, guess, p );
		guess = vertexOfA[g];
		pdiSfog_RecordFV( w, g, vertexOfA[g] );
	}
}

static pdStatus pdiSfog_RunConvexOverlay( pdiSfogWalk* w, const pdiMat33* rotationBA, pdVec3 translationBA )
{
	const pdiSfog* sA = w->sA;
	const pdiSfog* sB = w->sB;
	int VB = sB->vertexCount, NA = sA->nodeCount, NB = sB->nodeCount, EB = sB->edgeCount, EA = sA->edgeCount;
	// The pruned walk may queue a node twice (once certified, once walked).
	int NM = NA > 2 * NB ? NA : 2 * NB;
	size_t bytes = sizeof( double ) * 2u * (size_t)EA +
				   sizeof( pdVec3 ) * ( (size_t)VB + (size_t)NB + (size_t)NA ) +
				   sizeof( int ) * ( 2u * (size_t)NB + 2u * (size_t)NA + (size_t)NM + 2u * (size_t)EA ) + (size_t)EB +
				   (size_t)NB + 16;
	if ( !pdiBuffer_Reserve( &w->ws->sfogScratch, bytes, false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	char* base = w->ws->sfogScratch.data;
	double* crossScore = (double*)base;
	pdVec3* vertsB = (pdVec3*)( crossScore + 2 * EA );
	pdVec3* normalsB = vertsB + VB;
	pdVec3* normalsAinB = normalsB + NB;
	int* vertexOfB = (int*)( normalsAinB + NA );
	int* vertexOfA = vertexOfB + NB;
	int* queue = vertexOfA + NA;
	int* crossEdge = queue + NM;
	int* anchorOfB = crossEdge + 2 * EA; ///< pruned walk: the walked node a certified one hangs from
	int* guessOfA = anchorOfB + NB; ///< pruned FV pass: a B vertex near each A node's region
	uint8_t* edgeDone = (uint8_t*)( guessOfA + NA );
	uint8_t* nodeSeen = edgeDone + EB; ///< pruned walk: queued at least once
	// Evaluating only (the PD): the walk skips what cannot beat the best overlap so far, and
	// starts at the B node facing the way A's centroid lies from B's, where the smallest overlap
	// usually is, so that the best is small early.
	bool prune = w->evaluate && !w->store;
	if ( !prune )
	{
		for ( int i = 0; i < 2 * EA; ++i )
		{
			crossScore[i] = -2.0;
			crossEdge[i] = -1;
		}
		w->crossScore = crossScore;
		w->crossEdge = crossEdge;
	}
	for ( int i = 0; i < VB; ++i )
	{
		vertsB[i] = pdiAdd( pdiMulMV( rotationBA, w->meshB->vertices[i] ), translationBA );
	}
	pdVec3 centreB = pdiAdd( pdiMulMV( rotationBA, w->meshB->centroid ), translationBA );
	pdVec3 away = pdiSub( w->meshA->centroid, centreB );
	int startNode = 0;
	double startScore = -INFINITY;
	for ( int i = 0; i < NB; ++i )
	{
		normalsB[i] = pdiMulMV( rotationBA, sB->nodeNormals[i] );
		vertexOfB[i] = -1;
		double score = pdiDot( normalsB[i], away );
		if ( prune && score > startScore )
		{
			startScore = score;
			startNode = i;
		}
	}
	for ( int i = 0; i < NA; ++i )
	{
		// The pruned FV pass turns only the normals it climbs to.
		if ( !prune )
		{
			normalsAinB[i] = pdiMulMTV( rotationBA, sA->nodeNormals[i] );
		}
		vertexOfA[i] = -1;
	}
	for ( int e = 0; e < EB; ++e )
	{
		edgeDone[e] = 0;
	}
	for ( int i = 0; i < NB; ++i )
	{
		nodeSeen[i] = 0;
	}
	w->vertsB = vertsB;
	w->normalsB = normalsB;

	// B's face graph across A's vertex regions: VF at the nodes, EE along the arcs.
	if ( prune )
	{
		pdiSfog_PrunedFaceWalk( w, startNode, vertexOfB, anchorOfB, queue, edgeDone, nodeSeen );
	}
	else
	{
		pdiSfog_FaceWalk( w, startNode, vertexOfB, queue, edgeDone );
	}
	// FV: each A face node lies in the reflected B region just before the first crossing on
	// any of its arcs (one of the crossed B edge's two vertices). That guess is verified, and
	// corrected when needed, by hill climbing in B's own frame, so degenerate crossings (ties,
	// parallel edges, B nodes on A's arcs) only cost a few more steps.
	if ( !w->failed && prune )
	{
		pdiSfog_PrunedFvPass( w, rotationBA, vertexOfA, queue, guessOfA );
	}
	else if ( !w->failed )
	{
		pdiSfog_FvPass( w, normalsAinB, vertexOfA );
	}
	return w->failed ? PD_STATUS_FAILED : PD_STATUS_OK;
}

static bool pdiSfog_UsableConvex( const pdMesh* mesh )
{
	return pdiIsValidMesh( mesh ) && mesh->sfog != NULL && mesh->sfog->convex && mesh->sfog->vertexCount > 0 &&
		   mesh->sfog->nodeCount > 0;
}

// A walk over the convex overlay of A's and B's graphs, storing and evaluating nothing yet.
static pdiSfogWalk pdiSfog_NewWalk( const pdMesh* meshA, const pdMesh* meshB, pdWorkspace* ws )
{
	pdiSfogWalk w = { 0 };
	w.meshA = meshA;
	w.sA = meshA->sfog;
	w.meshB = meshB;
	w.sB = meshB->sfog;
	w.ws = ws;
	w.best = INFINITY;
	return w;
}

static void pdiSfog_FillStats( const pdiSfog* sA, const pdiSfog* sB, int count, int steps, pdiSfogOverlayStats* outStats )
{
	if ( outStats == NULL )
	{
		return;
	}
	outStats->pairsBefore = (int64_t)sA->vertexCount * sB->nodeCount + (int64_t)sA->nodeCount * sB->vertexCount +
							(int64_t)sA->edgeCount * sB->edgeCount;
	outStats->pairsAfter = count;
	outStats->tests = steps;
	outStats->events = 0;
	outStats->steps = steps;
}

pdStatus pdiSfog_OverlayConvex( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							   const pdiMat33* rotationB, pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
							   pdiSfogOverlayStats* outStats )
{
	*outCount = 0;
	*outPairs = NULL;
	if ( outStats != NULL )
	{
		*outStats = ( pdiSfogOverlayStats ){ 0 };
	}
	if ( !pdiIsValidWorkspace( ws ) || !pdiSfog_UsableConvex( meshA ) || !pdiSfog_UsableConvex( meshB ) ||
		 rotationA == NULL || rotationB == NULL )
	{
		return PD_STATUS_FAILED;
	}
	pdiSfogWalk w = pdiSfog_NewWalk( meshA, meshB, ws );
	w.store = true;
	pdiMat33 r = pdiSfog_RelativeRotation( rotationA, rotationB );
	pdStatus status = pdiSfog_RunConvexOverlay( &w, &r, pdiV3( 0.0, 0.0, 0.0 ) );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	*outCount = w.count;
	*outPairs = ws->sfogPairs.data;
	pdiSfog_FillStats( w.sA, w.sB, w.count, w.steps, outStats );
	return PD_STATUS_OK;
}

pdStatus pdiSfog_ConvexPenetration( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB,
								   const pdiFrame* frameB, pdWorkspace* ws, pdVec3* outTranslation, double* outDepth,
								   int* outCandidates )
{
	*outTranslation = pdiV3( 0.0, 0.0, 0.0 );
	*outDepth = 0.0;
	if ( outCandidates != NULL )
	{
		*outCandidates = 0;
	}
	if ( !pdiIsValidWorkspace( ws ) || frameA == NULL || frameB == NULL || !pdiSfog_UsableConvex( meshA ) ||
		 !pdiSfog_UsableConvex( meshB ) )
	{
		return PD_STATUS_FAILED;
	}
	pdiSfogWalk w = pdiSfog_NewWalk( meshA, meshB, ws );
	w.evaluate = true;
	pdiMat33 r = pdiSfog_RelativeRotation( &frameA->r, &frameB->r );
	pdVec3 t = pdiMulMTV( &frameA->r, pdiSub( frameB->p, frameA->p ) );
	pdStatus status = pdiSfog_RunConvexOverlay( &w, &r, t );
	if ( status != PD_STATUS_OK || !( w.best < INFINITY ) )
	{
		return status != PD_STATUS_OK ? status : PD_STATUS_FAILED;
	}
	if ( outCandidates != NULL )
	{
		*outCandidates = w.evaluated;
	}
	if ( w.best > 0.0 )
	{
		*outDepth = w.best;
		*outTranslation = pdiMulMV( &frameA->r, pdiScale( w.bestAxis, w.best ) );
	}
	return PD_STATUS_OK;
}
