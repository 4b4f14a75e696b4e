"""An OTLP/HTTP receiver that accepts and discards every export: what the observability scripts point
OTEL_EXPORTER_OTLP_ENDPOINT at, so a broker pays for its export without a collector on the machine.
    python3 docs/perf/otlp-sink.py PORT"""
import http.server
import sys


class Sink(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get('Content-Length', 0)))
        self.send_response(200)
        self.send_header('Content-Length', '0')
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), Sink).serve_forever()
