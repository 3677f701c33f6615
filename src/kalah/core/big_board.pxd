# The big build of the board (KALAH_BIG: 16-bit cells, up to 12 pits): the declarations of board.pxd.
include "board.pxd"
