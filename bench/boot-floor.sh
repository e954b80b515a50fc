#!/usr/bin/env bash
# The floor under Arbor's start-up (docs/BENCHMARKS.md#the-floor-a-bare-spring-boot-application-benchboot-floorsh):
# writes the smallest application of Arbor's Spring Boot version that has what a start-up goal counts to (Spring MVC on
# Jetty without its WebSocket support, as Arbor runs, and actuator's /actuator/health), with nothing of Arbor's, builds it, and times it with bench/cold-start.sh in
# the same ways and on the same JVMs as Arbor (WAYS, RUNS, JAVA_OPTS, PORT as there; BIG_SESSION is none). What this
# application takes here, Arbor cannot take less of in the same way of launching it. SPRING_AOT=true also runs Spring's
# AOT processing at build and starts with -Dspring.aot.enabled=true.
set -euo pipefail
cd "$(dirname "$0")/.."

boot=$(sed -n '/<artifactId>spring-boot-starter-parent<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p}' pom.xml)
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/src/main/java/floor"
aot_plugin=""
if [ "${SPRING_AOT:-false}" = true ]; then
	aot_plugin="<executions><execution><id>aot</id><goals><goal>process-aot</goal></goals></execution></executions>"
	export JAVA_OPTS="${JAVA_OPTS:--Xmx320m} -Dspring.aot.enabled=true"
fi
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
	<groupId>floor</groupId>
	<artifactId>floor</artifactId>
	<version>1</version>
	<properties>
		<java.version>17</java.version>
	</properties>
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
			<exclusions>
				<exclusion>
					<groupId>org.eclipse.jetty.ee11.websocket</groupId>
					<artifactId>jetty-ee11-websocket-jakarta-server</artifactId>
				</exclusion>
				<exclusion>
					<groupId>org.eclipse.jetty.ee11.websocket</groupId>
					<artifactId>jetty-ee11-websocket-jetty-server</artifactId>
				</exclusion>
			</exclusions>
		</dependency>
		<dependency>
			<groupId>org.springframework.boot</groupId>
			<artifactId>spring-boot-starter-actuator</artifactId>
		</dependency>
	</dependencies>
	<build>
		<plugins>
			<plugin>
				<groupId>org.springframework.boot</groupId>
				<artifactId>spring-boot-maven-plugin</artifactId>
				$aot_plugin
			</plugin>
		</plugins>
	</build>
</project>
POM
cat >"$app/src/main/java/floor/FloorApplication.java" <<'JAVA'
package floor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class FloorApplication {

	public static void main(String[] args) {
		SpringApplication.run(FloorApplication.class, args);
	}

}
JAVA
echo "Building a bare Spring Boot $boot application (Spring MVC and actuator) in $app ..." >&2
./mvnw -B -q -f "$app/pom.xml" -DskipTests package >&2
ARBOR_ARGS="${ARBOR_ARGS:-} --logging.level.floor=INFO" JAR="$app/target/floor-1.jar" BIG_SESSION=none bench/cold-start.sh
