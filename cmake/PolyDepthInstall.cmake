# SPDX-License-Identifier: MIT
# Installation and packaging (filled in with the packaging work).
