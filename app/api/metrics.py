"""``/metrics``: this worker's metrics in the Prometheus text format."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.common import metrics

router = APIRouter(tags=["health"])


@router.get("/metrics", response_class=Response, include_in_schema=False)
async def prometheus_metrics() -> Response:
    """Connections, live tables, actions by outcome and code, latencies, database errors."""
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)
