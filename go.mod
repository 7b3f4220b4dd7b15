module github.com/rvsim/rvsim

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/ebitengine/purego v0.11.3
	github.com/stretchr/testify v1.12.1
	golang.org/x/arch v0.32.0
	golang.org/x/sys v0.50.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
