"""The board definition files (*.json), installed with the host tools as the package ludus_boards so that
a non-editable install finds them (ludus_host.paths.board_file). Nothing to import: data only."""
