
ByJ0}èOh~g$æûaäaéoh#eØfbZ-Úˆã8b?êK`œáµßòßôedgijãÒé