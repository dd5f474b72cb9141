module github.com/hookctl/hookctl

go 1.26.8

require (
	github.com/AlecAivazis/survey/v2 v2.3.7
	github.com/BurntSushi/toml v1.6.0
	github.com/Netflix/go-expect v0.0.0-20220104043353-73e0943537d2
	github.com/aymanbagabas/go-udiff v0.4.2
	github.com/creack/pty v1.1.24
	github.com/fatih/color v1.19.0
	github.com/google/uuid v1.6.0
	github.com/hinshun/vt10x v0.0.0-20220301184237-5011da428d02
	github.com/invopop/jsonschema v0.14.0
	github.com/mattn/go-isatty v0.0.24
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/sourcegraph/jsonrpc2 v0.2.3
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
	github.com/urfave/cli/v2 v2.27.7
	go.mau.fi/util v0.11.1
	go.yaml.in/yaml/v4 v4.0.0-rc.2
	golang.org/x/sys v0.50.0
	golang.org/x/text v0.44.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/kballard/go-shellquote v0.0.0-20180428030007-95032a82bc51 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mgutz/ansi v0.0.0-20170206155736-9520e82c474b // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1 // indirect
	golang.org/x/term v0.45.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
