#!/usr/bin/env python3
"""Writes a JFR settings file: the JDK's profile.jfc with Jato's own events disabled.

With a recording running, Jato's transaction event is created per transaction, which is not what
the profile should measure. Usage: make-jfc.py $JAVA_HOME/lib/jfr/profile.jfc OUT.jfc
"""
import sys

settings = open(sys.argv[1]).read()
off = "\n".join('<event name="io.jato.%s"><setting name="enabled">false</setting></event>' % name
                for name in ("Transaction", "Abort", "Starving"))
open(sys.argv[2], "w").write(settings.replace("</configuration>", off + "\n</configuration>"))
