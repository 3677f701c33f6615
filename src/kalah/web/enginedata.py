"""The data files of the engine in the page: ``GET /static/engine/data/{name}``.

The browser's engine (``static/engine/``, WebAssembly) reads the opening books that ship in the
package (``kalah/book/data/*.book.json.gz``, :mod:`kalah.book`) from ``data/`` beside it, as a site
made by ``kalah site build`` holds them. Only those files are served, as they are (gzip-compressed
JSON, decompressed by the page).
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from kalah.book import data_directory

from .service import ApiError

router = APIRouter()


@router.get("/static/engine/data/{name}", include_in_schema=False)
async def engine_data(name: str) -> FileResponse:
    """An opening book of the package, by its file name (404 for any other name)."""
    books = {path.name: path for path in data_directory().glob("*.book.json.gz")}
    if name not in books:
        raise ApiError(404, f"no engine data file {name!r}")
    return FileResponse(books[name], media_type="application/gzip")
