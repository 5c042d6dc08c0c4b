# collect/device-env.sh — source in the repository root on a GPU machine where GSL, check and json-c are not installed:
# they are taken from their Debian packages unpacked into .debs/root (docs/collector.md, "Build"). Their .pc files
# name /usr; copies pointing at .debs/root go to /tmp/tc-pc, and the library paths are set for linking and running.
# The packages may travel as one archive (.debs/gsl-check.tar.xz, 1.1 MB against 4.7 MB unpacked: a GPU call
# carries at most 64 MiB); it is unpacked here when .debs/root is absent.
if [ ! -d .debs/root ] && [ -f .debs/gsl-check.tar.xz ]; then tar xJf .debs/gsl-check.tar.xz -C .debs; fi
R=$PWD/.debs/root/usr
mkdir -p /tmp/tc-pc
for f in "$R"/lib/x86_64-linux-gnu/pkgconfig/*.pc; do
  sed -E -e "s|^prefix=.*|prefix=$R|" -e "s#^([a-z_]+)=/usr(/|\$)#\1=$R\2#" -e "s|-I/usr/include|-I$R/include|g" \
      -e "s|-L/usr/lib/x86_64-linux-gnu|-L$R/lib/x86_64-linux-gnu|g" "$f" >/tmp/tc-pc/"$(basename "$f")"
done
export PKG_CONFIG_PATH=/tmp/tc-pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH=$R/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LIBRARY_PATH=$R/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
