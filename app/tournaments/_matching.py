"""A typed door to networkx's maximum-weight matching (Edmonds' blossom algorithm)."""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx  # type: ignore[import-untyped]


def max_weight_pairs(
    nodes: Iterable[str], edges: Iterable[tuple[str, str, int]]
) -> list[tuple[str, str]]:
    """The pairs of a matching of largest size, and of largest total weight among those.

    Weights are integers, so networkx computes with integers only and the result is exact.
    Each pair is returned in sorted order, and the list sorted, so the answer is deterministic.
    """
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for a, b, weight in edges:
        graph.add_edge(a, b, weight=weight)
    matching: set[tuple[str, str]] = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)
