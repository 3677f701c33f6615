# The big build of the search (KALAH_BIG: 16-bit cells, up to 12 pits): the declarations of search.pxd.
include "search.pxd"
