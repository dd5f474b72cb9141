#!/usr/bin/env no-such-node9
console.log("{}")
