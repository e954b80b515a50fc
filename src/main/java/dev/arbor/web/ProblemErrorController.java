package dev.arbor.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Hidden;

/**
 * Errors that never reached a controller (the container refused the request, or a filter sent an error) as
 * problem documents too, in place of Boot's {@code /error} JSON: a client parses one error format.
 */
@RestController
@Hidden
class ProblemErrorController implements ErrorController {

	@RequestMapping("${server.error.path:${error.path:/error}}")
	ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		int status = (code instanceof Integer value && value >= 400) ? value : 500;
		Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
		ProblemType type = ProblemType.forStatus(status);
		String detail = (status < 500 && message instanceof String text && !text.isBlank()) ? text
				: type.title();
		ProblemDetail problem = type.create(detail);
		problem.setStatus(status);
		return ResponseEntity.status(status).body(problem);
	}

}
