# The two commands a newcomer needs (see README.md):
#   make run   set up, build, and serve runlens with the synthetic sample on http://127.0.0.1:8080
#   make test  every check CI runs
.PHONY: run test setup
run:
	@scripts/run.sh
test: setup
	@scripts/test.sh
setup:
	@scripts/setup.sh
