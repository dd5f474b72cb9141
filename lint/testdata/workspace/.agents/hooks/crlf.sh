#!/bin/sh
echo "{}"
