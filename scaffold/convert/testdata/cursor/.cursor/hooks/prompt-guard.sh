#!/bin/sh
echo '{"continue": true}'
