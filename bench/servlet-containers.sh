#!/usr/bin/env bash
# What an idle event stream costs in each servlet container Spring Boot offers
# (docs/BENCHMARKS.md#what-a-stream-costs-in-each-servlet-container-benchservlet-containerssh): writes the smallest
# application of Arbor's Spring Boot version that holds event streams as Arbor does (Servlet async, one event written
# with non-blocking output, then nothing), builds it once on Tomcat and once on Jetty, and for each opens STREAMS
# streams (default 2000) that read their first event and then sit idle. Prints the server's heap after a full GC
# before and with them open, the heap per stream and the server's OS threads. Settings: STREAMS, JAVA_OPTS
# (default -Xmx512m), PORT (default 18090). Needs jcmd on the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

STREAMS=${STREAMS:-2000}
JAVA_OPTS=${JAVA_OPTS:--Xmx512m}
PORT=${PORT:-18090}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

boot=$(sed -n '/<artifactId>spring-boot-starter-parent<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p}' pom.xml)
app=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$app"' EXIT
mkdir -p "$app/src/main/java/streams" "$app/client"
cat >"$app/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
	<modelVersion>4.0.0</modelVersion>
	<parent>
		<groupId>org.springframework.boot</groupId>
		<artifactId>spring-boot-starter-parent</artifactId>
		<version>$boot</version>
		<relativePath/>
	</parent>
	<groupId>streams</groupId>
	<artifactId>streams</artifactId>
	<version>1</version>
	<properties>
		<java.version>17</java.version>
	</properties>
	<profiles>
		<profile>
			<id>tomcat</id>
			<dependencies>
				<dependency>
					<groupId>org.springframework.boot</groupId>
					<artifactId>spring-boot-starter-webmvc</artifactId>
				</dependency>
			</dependencies>
		</profile>
		<profile>
			<id>jetty</id>
			<dependencies>
				<dependency>
					<groupId>org.springframework.boot</groupId>
					<artifactId>spring-boot-starter-webmvc</artifactId>
					<exclusions>
						<exclusion>
							<groupId>org.springframework.boot</groupId>
							<artifactId>spring-boot-starter-tomcat</artifactId>
						</exclusion>
					</exclusions>
				</dependency>
				<dependency>
					<groupId>org.springframework.boot</groupId>
					<artifactId>spring-boot-starter-jetty</artifactId>
				</dependency>
			</dependencies>
		</profile>
	</profiles>
	<build>
		<plugins>
			<plugin>
				<groupId>org.springframework.boot</groupId>
				<artifactId>spring-boot-maven-plugin</artifactId>
			</plugin>
		</plugins>
	</build>
</project>
POM
cat >"$app/src/main/java/streams/StreamsApplication.java" <<'JAVA'
package streams;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@SpringBootApplication
@RestController
public class StreamsApplication {

	public static void main(String[] args) {
		SpringApplication.run(StreamsApplication.class, args);
	}

	@GetMapping("/ping")
	String ping() {
		return "ok";
	}

	// As Arbor's event streams: asynchronous, never timing out, written with non-blocking output
	@GetMapping("/events")
	void events(HttpServletRequest request, HttpServletResponse response) throws IOException {
		response.setContentType("text/event-stream");
		AsyncContext async = request.startAsync();
		async.setTimeout(0);
		ServletOutputStream out = response.getOutputStream();
		out.setWriteListener(new WriteListener() {
			private boolean written;

			@Override
			public void onWritePossible() throws IOException {
				if (!written && out.isReady()) {
					written = true;
					out.write(": open\n\n".getBytes(StandardCharsets.UTF_8));
					if (out.isReady()) {
						out.flush();
					}
				}
			}

			@Override
			public void onError(Throwable failure) {
				async.complete();
			}
		});
	}

}
JAVA
cat >"$app/client/Streams.java" <<'JAVA'
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Opens the streams one after another, each read up to its first event, and holds them until stdin closes. */
public class Streams {
	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int count = Integer.parseInt(args[1]);
		byte[] get = "GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"
			.getBytes(StandardCharsets.US_ASCII);
		List<SocketChannel> open = new ArrayList<>();
		ByteBuffer buffer = ByteBuffer.allocate(4096);
		for (int i = 0; i < count; i++) {
			SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
			channel.write(ByteBuffer.wrap(get));
			buffer.clear();
			while (!new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).contains(": open")) {
				if (channel.read(buffer) < 0) {
					throw new IllegalStateException("stream " + i + " closed before its first event");
				}
			}
			open.add(channel);
		}
		System.out.println("open " + open.size());
		System.in.read();
		for (SocketChannel channel : open) {
			channel.close();
		}
	}
}
JAVA
echo "Building a Spring Boot $boot application holding event streams, on Tomcat and on Jetty, in $app ..." >&2
javac -d "$app/client" "$app/client/Streams.java"
for container in tomcat jetty; do
	./mvnw -B -q -f "$app/pom.xml" -P"$container" -DskipTests clean package >&2
	cp "$app/target/streams-1.jar" "$app/$container.jar"
done

heap_kb() { # used heap after two full GCs, in KB
	jcmd "$1" GC.run >/dev/null
	sleep 1
	jcmd "$1" GC.run >/dev/null
	jcmd "$1" GC.heap_info | grep -oE 'used [0-9]+K' | head -1 | grep -oE '[0-9]+'
}

echo "| container | heap idle | heap with $STREAMS streams | per stream | OS threads idle → open |"
echo "|---|---:|---:|---:|---:|"
for container in tomcat jetty; do
	# shellcheck disable=SC2086
	java $JAVA_OPTS -jar "$app/$container.jar" --server.port="$PORT" --logging.level.root=warn >"$app/$container.log" 2>&1 &
	server=$!
	until curl -sf "localhost:$PORT/ping" >/dev/null; do sleep 0.2; done
	curl -s --max-time 1 "localhost:$PORT/events" >/dev/null || true # the first stream's classes loaded
	idle=$(heap_kb "$server")
	threads_idle=$(ls "/proc/$server/task" | wc -l)
	mkfifo "$app/hold"
	exec 3<>"$app/hold"
	java -cp "$app/client" Streams "$PORT" "$STREAMS" <"$app/hold" >"$app/client.log" &
	client=$!
	until grep -q open "$app/client.log"; do
		kill -0 "$client" 2>/dev/null || { echo "the client failed" >&2; exit 1; }
		sleep 0.5
	done
	open=$(heap_kb "$server")
	threads_open=$(ls "/proc/$server/task" | wc -l)
	echo x >&3
	exec 3>&-
	wait "$client" || true
	rm -f "$app/hold"
	kill "$server"
	wait "$server" 2>/dev/null || true
	server=""
	printf '| %s | %.1f MB | %.1f MB | %.1f KB | %s → %s |\n' "$container" "$(echo "$idle/1024" | bc -l)" \
		"$(echo "$open/1024" | bc -l)" "$(echo "($open-$idle)/$STREAMS" | bc -l)" "$threads_idle" "$threads_open"
done
