"""What routes take as dependencies: the app's game service, its settings, the client's key."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection  # at run time: FastAPI reads the annotations below

from .clients import client_of
from .service import GameService
from .settings import ServerSettings


def game_service(connection: HTTPConnection) -> GameService:
    """The app's game service (made when the server starts)."""
    service: GameService = connection.app.state.service
    return service


def server_settings(connection: HTTPConnection) -> ServerSettings:
    """The server's settings."""
    settings: ServerSettings = connection.app.state.settings
    return settings


Service = Annotated[GameService, Depends(game_service)]
Settings = Annotated[ServerSettings, Depends(server_settings)]
Client = Annotated[str, Depends(client_of)]
