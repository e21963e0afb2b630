#!/usr/bin/python3
"""Measures an HTML report as a reader sees it, in Debian's Chromium driven by Selenium.

    html_layout.py REPORT.html SCREENSHOT_DIR

At 1400 and 800 px wide windows: the page never scrolls sideways; at 1400 px the results table
fits the window and every row is one line; a row's disclosure opens its text; a column unchecked
in the report's column list disappears. Prints what it measured and saves a screenshot per width
into SCREENSHOT_DIR; exits 1 naming each check that failed.
"""

import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

# One line of the table's 13 px text with its padding and borders; a wrapped cell or an inline
# plot makes a row at least twice this.
ONE_LINE_PX = 32


def browser(profile):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-background-networking", f"--user-data-dir={profile}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    report, shots = sys.argv[1], sys.argv[2]
    failures = []
    driver = browser(os.path.join(shots, "profile"))
    try:
        for width in (1400, 800):
            driver.set_window_size(width, 1000)
            driver.get("file://" + os.path.abspath(report))
            inner = driver.execute_script("return window.innerWidth")
            page = driver.execute_script("return document.documentElement.scrollWidth")
            table = driver.find_element(By.CSS_SELECTOR, "table.results")
            rows = table.find_elements(By.TAG_NAME, "tr")[1:]
            heights = [row.size["height"] for row in rows]
            print(f"{width} px window: inner {inner}, page {page}, results table "
                  f"{table.size['width']} px wide, {len(rows)} rows of {min(heights)}-"
                  f"{max(heights)} px")
            driver.save_screenshot(os.path.join(shots, f"report-{width}.png"))
            if page > inner:
                failures.append(f"at {width} px the page scrolls sideways ({page} px)")
            if width == 1400:
                if table.size["width"] > inner:
                    failures.append(f"at 1400 px the results table is {table.size['width']} px")
                if max(heights) > ONE_LINE_PX:
                    failures.append(f"a results row is {max(heights)} px tall (one line: "
                                    f"{ONE_LINE_PX})")
        # Open the first disclosure that holds text: its row grows, and its text is visible.
        disclosure = driver.find_elements(By.CSS_SELECTOR, "table.results details")
        if not disclosure:
            failures.append("no disclosure in the results table")
        else:
            row = disclosure[0].find_element(By.XPATH, "./ancestor::tr")
            closed = row.size["height"]
            disclosure[0].find_element(By.TAG_NAME, "summary").click()
            text = disclosure[0].find_element(By.CSS_SELECTOR, ".long")
            print(f"disclosure: row {closed} px closed, {row.size['height']} px open")
            if not text.is_displayed() or row.size["height"] <= closed:
                failures.append("opening a disclosure showed nothing")
        # Uncheck the first column that is shown: its cells are hidden.
        box = driver.find_element(By.CSS_SELECTOR, ".results-block input:checked")
        column = box.get_attribute("id").removeprefix("show-")
        cell = driver.find_element(By.CSS_SELECTOR, f"table.results th.{column}")
        before = cell.is_displayed()
        driver.find_element(By.CSS_SELECTOR, f"label[for='{box.get_attribute('id')}']").click()
        print(f"column {column}: shown {before}, after unchecking {cell.is_displayed()}")
        if not before or cell.is_displayed():
            failures.append(f"unchecking column {column} did not hide it")
    finally:
        driver.quit()
    for failure in failures:
        print("FAIL:", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
